import type { Cells } from '../../model/cells';
import { evaluateFused } from '../fused';
import type { Problem } from '../types';
import { wasmBuilderFor, wasmFloat32, type Evaluate, type EvaluateBuilder } from '../wasm/engine';
import type { ShardKernel, ShardReply, ShardRequest } from './shard';
import { createCurvature } from '../curvature';
import { sweepable } from '../sweep';

/** The JS fused loop's builder: the cells assembled in arrays of their own. */
function fusedBuilder(problem: Problem): EvaluateBuilder {
  const { n, Kmax } = problem.cells;
  const cells: Cells = {
    ...problem.cells,
    cellJ: new Uint32Array(n),
    cellI: new Uint32Array(n),
    target: new Float32Array(n * Kmax),
    correct: new Float32Array(n),
  };
  const whole = { ...problem, cells } as Problem;
  return {
    fill(at, part) {
      cells.cellJ.set(part.cellJ, at);
      cells.cellI.set(part.cellI, at);
      cells.target.set(part.target, at * Kmax);
      cells.correct.set(part.correct, at);
    },
    finish: () => (nat, grad) => evaluateFused(whole, nat, grad),
    held: () => ({ cells, stride: Kmax }),
  };
}

/** A shard's builder, whether it has a float32 path, and why it fell back to the JS loop. */
interface ShardBuild {
  builder: EvaluateBuilder;
  float32: boolean;
  fallback?: string;
}

/**
 * The shard's builder: the WASM kernel where asked for and it applies, else the
 * JS loop, with the reason reported back (`ready`'s `fallback`).
 */
async function open(problem: Problem, kernel: ShardKernel | undefined): Promise<ShardBuild> {
  if (kernel !== 'wasm') return { builder: fusedBuilder(problem), float32: false };
  const b = await wasmBuilderFor(problem);
  if (b.kind === 'wasm') return { builder: b.builder, float32: wasmFloat32(problem) };
  return { builder: fusedBuilder(problem), float32: false, fallback: b.reason };
}

/**
 * The shard side: holds one shard's problem and answers evaluate requests with
 * its partial cross-entropy and gradient. `post` sends a reply, transferring
 * the gradient buffer. The set-up messages (shard.ts) run in order, each after
 * the last has finished (opening the WASM kernel is asynchronous). Runtime-
 * neutral: a Web Worker and a Node worker thread both wrap it.
 */
export function createShardServer(post: (msg: ShardReply, transfer: ArrayBuffer[]) => void) {
  let evaluate: Evaluate | null = null;
  // The shard's cells as its evaluator holds them, and their curvature's sweeper (made on first use).
  let held: ReturnType<EvaluateBuilder['held']> | null = null;
  let curvature: ReturnType<typeof createCurvature> | null = null;
  let problem: Problem | null = null;
  let build: ShardBuild | null = null;
  let setup: Promise<void> = Promise.resolve();
  const then = (work: () => Promise<void> | void) => {
    setup = setup
      .then(work)
      .catch((e) => post({ type: 'error', id: 0, message: (e as Error).message }, []));
  };
  const building = () => {
    if (!build) throw new Error('shard not initialised');
    return build;
  };
  return (msg: ShardRequest) => {
    if (msg.type === 'init') {
      const { kernel } = msg;
      problem = msg.problem;
      return then(async () => {
        build = await open(msg.problem, kernel);
      });
    }
    if (msg.type === 'cells') {
      const { at, part } = msg;
      return then(() => {
        building().builder.fill(at, part);
        post({ type: 'took' }, []);
      });
    }
    if (msg.type === 'finish') {
      return then(() => {
        const { builder, float32, fallback } = building();
        evaluate = builder.finish();
        held = builder.held();
        build = null;
        post({ type: 'ready', float32, ...(fallback ? { fallback } : {}) }, []);
      });
    }
    if (msg.type === 'curvature') return answerCurvature(msg);
    try {
      if (!evaluate) throw new Error('shard not initialised');
      const grad = msg.wantGrad ? new Float64Array(msg.nat.length) : null;
      const ce = evaluate(msg.nat, grad, msg.coarse);
      post({ type: 'result', id: msg.id, ce, grad }, grad ? [grad.buffer as ArrayBuffer] : []);
    } catch (e) {
      post({ type: 'error', id: msg.id, message: (e as Error).message }, []);
    }
  };

  function answerCurvature(msg: Extract<ShardRequest, { type: 'curvature' }>) {
    try {
      if (!held || !problem) throw new Error('shard not initialised');
      if (problem.kind !== 'nominal' || !sweepable(problem.flags))
        throw new Error('no curvature sweep for this problem');
      curvature ??= createCurvature(problem.layout, problem.flags, held.cells, held.stride);
      const part = curvature.sweep(msg.nat, msg.prec);
      const bufs = [part.items.buffer, part.llm.buffer, part.gate.buffer] as ArrayBuffer[];
      post({ type: 'curvature', id: msg.id, part }, bufs);
    } catch (e) {
      post({ type: 'error', id: msg.id, message: (e as Error).message }, []);
    }
  }
}
