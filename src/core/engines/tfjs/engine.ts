import * as tf from '@tensorflow/tfjs-core';
import type { Engine, EngineName, Problem } from '../types';
import { activateBackend, type TfjsBackend } from './backend';
import { DEFAULT_CHUNK_ELEMENTS, planChunks, type ChunkPlan } from './layout';
import { binaryRowLoss, nominalRowLoss, type ChunkTensors, type Params } from './losses';
import { gatherScatter, gatherSegment } from './ops';

export type { TfjsBackend } from './backend';

/** Tuning knobs of the tfjs engine; the defaults suit every backend. */
export interface TfjsEngineOptions {
  /** Padded cells per chunk (default 2²¹ / Kmax, i.e. 8 MiB per [cells, Kmax] tensor). */
  maxCellsPerChunk?: number;
  /**
   * Gradient of the per-cell LLM-parameter gather: `segment` (UnsortedSegmentSum,
   * tf.gather's own) or `scatter` (ScatterNd). Default: segment on WebGL, whose
   * ScatterNd loops over every cell in each output thread while its segment sum
   * is a parallel windowed reduction; scatter elsewhere: wasm has no segment
   * sum, the cpu one runs one masked pass per LLM (100 LLMs: ~50× slower), and
   * WebGPU implements both with atomics.
   */
  gatherGradient?: 'segment' | 'scatter';
}

/**
 * A parameter block: its shape and the natural-vector offset of each element.
 * A `constant` block is an input derived from the parameters in float64 (map)
 * that autodiff treats as fixed.
 */
interface Block {
  name: string;
  shape: number[];
  index: Int32Array;
  constant?: (x: number) => number;
}

interface Chunk {
  plan: ChunkPlan;
  data: ChunkTensors;
  blocks: Block[];
}

const range = (off: number, n: number) => Int32Array.from({ length: n }, (_, q) => off + q);

/** Offsets of `width` consecutive entries starting at base + row·stride, for each row. */
function rowsIndex(items: Int32Array, base: number, stride: number, width: number): Int32Array {
  const out = new Int32Array(items.length * width);
  items.forEach((i, r) => {
    for (let k = 0; k < width; k++) out[r * width + k] = base + i * stride + k;
  });
  return out;
}

/** The LLM-level (global) and item-level (per chunk) parameter blocks the problem uses. */
function parameterBlocks(problem: Problem): {
  global: Block[];
  item: (items: Int32Array) => Block[];
} {
  if (problem.kind === 'nominal') {
    const { layout: L, flags: f } = problem;
    const { J, Kmax: K } = L;
    const global: Block[] = [{ name: 'theta', shape: [J], index: range(L.theta, J) }];
    if (f.sharpness) global.push({ name: 's', shape: [J], index: range(L.s, J) });
    if (f.position) global.push({ name: 'delta', shape: [J, K], index: range(L.delta, J * K) });
    if (f.fallback) {
      global.push({ name: 'rho', shape: [J, K], index: range(L.rho, J * K) });
      global.push({ name: 'w0', shape: [], index: range(L.w0, 1) });
      global.push({ name: 'kappa', shape: [], index: range(L.kappa, 1) });
    }
    const item = (items: Int32Array): Block[] => [
      { name: 'a', shape: [items.length, K], index: rowsIndex(items, L.a, K, K) },
      { name: 'c', shape: [items.length, K], index: rowsIndex(items, L.c, K, K) },
    ];
    return { global, item };
  }
  const { layout: L, model } = problem;
  const global: Block[] = [{ name: 'theta', shape: [L.J], index: range(L.theta, L.J) }];
  if (model === '1pl') global.push({ name: 'a', shape: [], index: range(L.a, 1) });
  const item = (items: Int32Array): Block[] => {
    const col = (name: string, base: number): Block => ({
      name,
      shape: [items.length],
      index: rowsIndex(items, base, 1, 1),
    });
    const out: Block[] = model === '1pl' ? [] : [col('a', L.a)];
    out.push(col('d', L.d));
    if (model === '3pl' || model === '4pl') out.push(col('g', L.g));
    if (model === '4pl') {
      out.push(col('u', L.u));
      // 1 − u loses all precision in float32 once u is within ~1e-5 of 1 (a
      // logit of 11); this float64 correction restores it (see binaryRowLoss).
      out.push({ ...col('uCorr', L.u), constant: (u) => 1 - u - (1 - Math.fround(u)) });
    }
    return out;
  };
  return { global, item };
}

/** Uploads one chunk's data (targets, masks, LLM indices) as tensors. */
function uploadChunk(problem: Problem, plan: ChunkPlan, withIdx2d: boolean): ChunkTensors {
  const { cells } = problem;
  const rows = plan.items.length;
  const { width } = plan;
  const jIdx = new Int32Array(rows * width);
  plan.cells.forEach((q, s) => (jIdx[s] = q < 0 ? 0 : cells.cellJ[q]));
  const data: ChunkTensors = {
    rows,
    width,
    jIdx: tf.tensor1d(jIdx, 'int32'),
    jIdx2d: withIdx2d ? tf.tensor2d(jIdx, [rows * width, 1], 'int32') : null,
  };
  // Correctness targets (binary models, the nominal binary channel) need a
  // weight to silence padded slots; option targets are zero there already.
  const binaryTarget = problem.kind === 'binary' || problem.channel === 'binary';
  if (problem.kind === 'nominal') {
    const K = cells.Kmax;
    if (!binaryTarget) {
      const target = new Float32Array(rows * width * K);
      plan.cells.forEach(
        (q, s) => q >= 0 && target.set(cells.target.subarray(q * K, (q + 1) * K), s * K),
      );
      data.target = tf.tensor3d(target, [rows, width, K]);
    }
    const optMask = new Float32Array(rows * K);
    const keyHot = new Float32Array(rows * K);
    plan.items.forEach((i, r) => {
      optMask.fill(1, r * K, r * K + cells.nOptions[i]);
      keyHot[r * K + cells.key[i]] = 1;
    });
    data.optMask = tf.tensor2d(optMask, [rows, K]);
    data.keyHot = tf.tensor2d(keyHot, [rows, K]);
  }
  if (binaryTarget) {
    const y = new Float32Array(rows * width);
    const weight = new Float32Array(rows * width);
    plan.cells.forEach((q, s) => {
      if (q < 0) return;
      y[s] = cells.correct[q];
      weight[s] = 1;
    });
    data.y = tf.tensor2d(y, [rows, width]);
    data.weight = tf.tensor2d(weight, [rows, width]);
  }
  return data;
}

function disposeChunk(data: ChunkTensors): void {
  for (const t of Object.values(data)) if (t instanceof tf.Tensor) t.dispose();
}

/** Float32 tensor of a block's entries read from the natural vector. */
function blockTensor(nat: Float64Array, b: Block): tf.Tensor {
  const v = new Float32Array(b.index.length);
  const map = b.constant ?? ((x: number) => x);
  for (let q = 0; q < v.length; q++) v[q] = map(nat[b.index[q]]);
  return tf.tensor(v, b.shape, 'float32');
}

/**
 * The cross-entropy engine on a tfjs backend, with gradients by tfjs autodiff.
 * It computes the same function as the fused engine (fusedNominal.ts,
 * fusedBinary.ts) in float32 on the device, accumulating chunk and row sums in
 * float64. Data are uploaded once; each evaluate uploads only the parameters.
 * tfjs has one active backend per thread: engines on different backends can be
 * used alternately, but each switch moves tensors between backends.
 */
export async function createTfjsEngine(
  problem: Problem,
  backend: TfjsBackend,
  opts: TfjsEngineOptions = {},
): Promise<Engine> {
  await activateBackend(backend);
  const name = `tfjs-${backend}` as EngineName;
  const useScatter =
    (opts.gatherGradient ?? (backend === 'webgl' ? 'segment' : 'scatter')) === 'scatter';
  const gather = useScatter ? gatherScatter : gatherSegment;
  const maxCells = Math.max(
    1,
    opts.maxCellsPerChunk ?? Math.floor(DEFAULT_CHUNK_ELEMENTS / problem.cells.Kmax),
  );
  const blocks = parameterBlocks(problem);
  const chunks: Chunk[] = [];
  try {
    for (const plan of planChunks(problem.cells, maxCells)) {
      chunks.push({
        plan,
        data: uploadChunk(problem, plan, useScatter),
        blocks: blocks.item(plan.items),
      });
    }
  } catch (err) {
    chunks.forEach((c) => disposeChunk(c.data));
    throw err;
  }
  const rowLoss = (p: Params, ch: ChunkTensors) =>
    problem.kind === 'nominal'
      ? nominalRowLoss(p, ch, problem.flags, problem.channel ?? 'option', gather)
      : binaryRowLoss(p, ch, problem.model, gather);
  let disposed = false;

  /** Queues one chunk; returns [row losses, then each block's gradient, flattened]. */
  function launch(
    chunk: Chunk,
    nat: Float64Array,
    globals: tf.Tensor[],
    withGrad: boolean,
  ): tf.Tensor {
    const local = chunk.blocks.map((b) => blockTensor(nat, b));
    const all = [...blocks.global, ...chunk.blocks];
    const inputs = [...globals, ...local];
    const xs = inputs.filter((_, q) => !all[q].constant);
    const fixed: Params = {};
    all.forEach((b, q) => b.constant && (fixed[b.name] = inputs[q]));
    try {
      return tf.tidy(() => {
        const f = (...ts: tf.Tensor[]) => {
          const p: Params = { ...fixed };
          all.filter((b) => !b.constant).forEach((b, q) => (p[b.name] = ts[q]));
          return rowLoss(p, chunk.data);
        };
        if (!withGrad) return f(...xs);
        const { value, grads } = tf.valueAndGrads(f)(xs);
        return tf.concat([value, ...grads.map((g) => tf.reshape(g, [-1]))]);
      });
    } finally {
      local.forEach((t) => t.dispose());
    }
  }
  return {
    name,
    async evaluate(nat, grad) {
      if (disposed) throw new Error(`${name} engine used after dispose()`);
      if (tf.getBackend() !== backend) await activateBackend(backend);
      const globals = blocks.global.map((b) => blockTensor(nat, b));
      const outs: tf.Tensor[] = [];
      try {
        // Queue every chunk before reading any back, so a GPU never idles on a read.
        for (const chunk of chunks) outs.push(launch(chunk, nat, globals, grad !== null));
      } catch (err) {
        outs.forEach((t) => t.dispose());
        throw err;
      } finally {
        globals.forEach((t) => t.dispose());
      }
      grad?.fill(0);
      let ce = 0;
      try {
        for (let k = 0; k < chunks.length; k++) {
          const v = await outs[k].data();
          const rows = chunks[k].plan.items.length;
          for (let r = 0; r < rows; r++) ce += v[r];
          if (!grad) continue;
          let off = rows;
          for (const b of [...blocks.global, ...chunks[k].blocks]) {
            if (b.constant) continue;
            for (let q = 0; q < b.index.length; q++) grad[b.index[q]] += v[off + q];
            off += b.index.length;
          }
        }
      } finally {
        outs.forEach((t) => t.dispose());
      }
      return ce;
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      chunks.forEach((c) => disposeChunk(c.data));
    },
  };
}
