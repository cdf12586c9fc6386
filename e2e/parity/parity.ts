import { createFusedEngine, evaluateFused } from '../../src/core/engines/fused';
import type { Engine, Problem } from '../../src/core/engines/types';
import { maxRelError, testProblem } from '../../src/core/engines/tfjs/testing';
import type { GateForm } from '../../src/core/model/gate';
import { createWebGpuEngine, type WebGpuEngineOptions } from '../../src/core/engines/webgpu/engine';
import {
  BINARY_MODELS,
  NOMINAL_MODELS,
  type Channel,
  type ModelType,
} from '../../src/core/model/types';

/** One comparison of the WebGPU engine against the fused CPU engine. */
export interface ParityCase {
  name: string;
  model: ModelType;
  channel: Channel;
  cells: number;
  ceRef: number;
  ceGpu: number;
  /** |CE_gpu − CE_fused| / |CE_fused|. */
  ceRel: number;
  /** Same, for an evaluate without a gradient. */
  ceOnlyRel: number;
  /** max_q |g_gpu − g_fused| / max_q |g_fused|. */
  gradRel: number;
}

export interface ParityReport {
  adapter: { vendor: string; architecture: string; isFallbackAdapter: boolean | null };
  J: number;
  I: number;
  cases: ParityCase[];
  /** Milliseconds per evaluate with gradient, LLM-NRM, J × I as above (for the record). */
  msPerEvaluate: { webgpu: number; fused: number };
  /** Name of the error an evaluate raised after the device was destroyed. */
  deviceLost: string;
  /** The tfjs engines on the GPU backends (autodiff) against the fused engine. */
  tfjs: ParityCase[];
}

/** tfjs-webgpu and tfjs-webgl against the fused engine, on the same problems. */
async function compareTfjs(): Promise<ParityCase[]> {
  const { createTfjsEngine } = await import('../../src/core/engines/tfjs/engine');
  const out: ParityCase[] = [];
  let seed = 51;
  for (const backend of ['webgpu', 'webgl'] as const) {
    for (const model of ['llmnrm', 'nrm-soft', '2pl'] as const) {
      const { problem, nat } = makeProblem(model, 'option', seed++);
      const gRef = new Float64Array(nat.length);
      const ceRef = evaluateFused(problem, nat, gRef);
      const engine = await createTfjsEngine(problem, backend);
      try {
        const g = new Float64Array(nat.length).fill(NaN);
        const ce = await engine.evaluate(nat, g);
        const ceOnly = await engine.evaluate(nat, null);
        out.push({
          name: `tfjs-${backend} ${model}`,
          model,
          channel: 'option',
          cells: problem.cells.n,
          ceRef,
          ceGpu: ce,
          ceRel: Math.abs(ce - ceRef) / Math.abs(ceRef),
          ceOnlyRel: Math.abs(ceOnly - ceRef) / Math.abs(ceRef),
          gradRel: g.some(Number.isNaN) ? NaN : maxRelError(g, gRef),
        });
      } finally {
        engine.dispose();
      }
    }
  }
  return out;
}

const J = 10;
const I = 200;

/** A simulated problem (mixed K, 15% missing) and random natural parameters through the model's parameterisation. */
function makeProblem(
  model: ModelType,
  channel: Channel,
  seed: number,
  scale = 0.8,
  gate: GateForm = 'eq10',
): { problem: Problem; nat: Float64Array } {
  return testProblem(model, { J, I, seed, scale, channel, missing: 0.15, salt: 17, gate });
}

async function compare(
  device: GPUDevice,
  name: string,
  model: ModelType,
  channel: Channel,
  seed: number,
  opts: WebGpuEngineOptions & { scale?: number; gate?: GateForm } = {},
): Promise<ParityCase> {
  const { problem, nat } = makeProblem(model, channel, seed, opts.scale, opts.gate);
  const gRef = new Float64Array(nat.length);
  const ceRef = evaluateFused(problem, nat, gRef);
  const engine = await createWebGpuEngine(problem, device, opts);
  try {
    const g = new Float64Array(nat.length).fill(NaN);
    const ceGpu = await engine.evaluate(nat, g);
    const ceOnly = await engine.evaluate(nat, null);
    return {
      name,
      model,
      channel,
      cells: problem.cells.n,
      ceRef,
      ceGpu,
      ceRel: Math.abs(ceGpu - ceRef) / Math.abs(ceRef),
      ceOnlyRel: Math.abs(ceOnly - ceRef) / Math.abs(ceRef),
      gradRel: g.some(Number.isNaN) ? NaN : maxRelError(g, gRef),
    };
  } finally {
    engine.dispose();
  }
}

async function msPer(engine: Engine, nat: Float64Array, reps: number): Promise<number> {
  const g = new Float64Array(nat.length);
  await engine.evaluate(nat, g);
  const t0 = performance.now();
  for (let r = 0; r < reps; r++) await engine.evaluate(nat, g);
  return (performance.now() - t0) / reps;
}

/** Evaluates after the device is destroyed must reject with a DeviceLostError. */
async function deviceLoss(): Promise<string> {
  // An adapter hands out one device, so this test takes a fresh one.
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) throw new Error('no second WebGPU adapter for the device-loss test');
  const device = await adapter.requestDevice();
  const { problem, nat } = makeProblem('llmnrm', 'option', 3);
  const engine = await createWebGpuEngine(problem, device);
  await engine.evaluate(nat, null);
  const pending = engine.evaluate(nat, new Float64Array(nat.length));
  device.destroy();
  const names: string[] = [];
  for (const p of [pending, engine.evaluate(nat, null)]) {
    try {
      await p;
      names.push('resolved');
    } catch (e) {
      names.push((e as Error).name);
    }
  }
  engine.dispose();
  // The pending evaluate may have finished before the loss; the next one must not.
  return names[1];
}

export async function runParity(): Promise<ParityReport> {
  const gpu = navigator.gpu;
  if (!gpu) throw new Error('navigator.gpu is missing: WebGPU is not available in this browser');
  const adapter = await gpu.requestAdapter();
  if (!adapter) throw new Error('navigator.gpu.requestAdapter() returned null');
  const info = adapter.info;
  const device = await adapter.requestDevice();
  try {
    const cases: ParityCase[] = [];
    let seed = 11;
    for (const model of NOMINAL_MODELS) {
      cases.push(await compare(device, model, model, 'option', seed++));
    }
    cases.push(await compare(device, 'llmnrm binary channel', 'llmnrm', 'binary', seed++));
    cases.push(await compare(device, 'llmnrm wrong channel', 'llmnrm', 'wrong', seed++));
    cases.push(
      await compare(device, 'llmnrm in 4 KiB chunks', 'llmnrm', 'option', seed++, {
        maxBufferBytes: 4096,
      }),
    );
    cases.push(
      await compare(device, 'llmnrm, wide parameters', 'llmnrm', 'option', seed++, { scale: 2 }),
    );
    // The margin gate (model/gate.ts) on each channel; the cases above run eq. 10's.
    const margin = { gate: 'margin' } as const;
    for (const model of ['llmnrm', 'no-sharpness', 'no-position'] as const)
      cases.push(await compare(device, `${model} margin gate`, model, 'option', seed++, margin));
    cases.push(await compare(device, 'margin, binary channel', 'llmnrm', 'binary', seed++, margin));
    cases.push(await compare(device, 'margin, wrong channel', 'llmnrm', 'wrong', seed++, margin));
    cases.push(
      await compare(device, 'margin, wide parameters', 'llmnrm', 'option', seed++, {
        ...margin,
        scale: 2,
      }),
    );
    for (const model of BINARY_MODELS) {
      cases.push(await compare(device, model, model, 'binary', seed++));
    }
    const { problem, nat } = makeProblem('llmnrm', 'option', 99);
    const gpuEngine = await createWebGpuEngine(problem, device);
    const fusedEngine = createFusedEngine(problem);
    let webgpu: number;
    try {
      webgpu = await msPer(gpuEngine, nat, 20);
    } finally {
      gpuEngine.dispose();
    }
    const fused = await msPer(fusedEngine, nat, 200);
    return {
      adapter: {
        vendor: info.vendor,
        architecture: info.architecture,
        isFallbackAdapter: info.isFallbackAdapter ?? null,
      },
      J,
      I,
      cases,
      msPerEvaluate: { webgpu, fused },
      deviceLost: await deviceLoss(),
      tfjs: await compareTfjs(),
    };
  } finally {
    device.destroy();
  }
}
