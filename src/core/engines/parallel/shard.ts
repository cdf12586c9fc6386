import type { Cells } from '../../model/cells';
import type { Problem } from '../types';
import type { CellsPart } from '../wasm/engine';
import type { CurvatureParts, ItemPrecision } from '../curvature';

/**
 * Split a problem's cells into `n` contiguous ranges that end on item
 * boundaries (cells are item-major), balanced by cell count. Each shard then
 * owns its items' gradients outright; only LLM and global gradients overlap
 * and are summed.
 */
export function shardRanges(cells: Cells, n: number): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  for (let s = 1; s <= n && start < cells.n; s++) {
    let end = s === n ? cells.n : Math.round((cells.n * s) / n);
    // Move the cut forward to the next item boundary.
    while (end < cells.n && end > 0 && cells.cellI[end] === cells.cellI[end - 1]) end++;
    if (end > start) out.push([start, end]);
    start = end;
  }
  return out;
}

/** The per-cell arrays of cells [from, to) (copies, so they can be transferred). */
export function cellsPart(cells: Cells, from: number, to: number): CellsPart {
  const K = cells.Kmax;
  return {
    n: to - from,
    cellJ: cells.cellJ.slice(from, to),
    cellI: cells.cellI.slice(from, to),
    target: cells.target.slice(from * K, to * K),
    correct: cells.correct.slice(from, to),
  };
}

/**
 * The same problem for a shard of `n` cells, without its per-cell arrays (they
 * follow in batches of `cellsPart`, so neither side holds a shard's cells twice).
 */
export function shardHeader(problem: Problem, n: number): Problem {
  const cells: Cells = {
    ...problem.cells,
    n,
    cellJ: new Uint32Array(0),
    cellI: new Uint32Array(0),
    target: new Float32Array(0),
    correct: new Float32Array(0),
  };
  return { ...problem, cells } as Problem;
}

/** What a shard evaluates with: the JS fused loop or the WASM kernel (engines/wasm). */
export type ShardKernel = 'fused' | 'wasm';

/**
 * Messages between the parallel engine and its shard workers. Set-up: `init`
 * (the problem without its cells), then each batch of cells (`cells`, answered
 * `took`), then `finish` (answered `ready`); then `evaluate`s (answered
 * `result`) and `curvature`s (answered `curvature`).
 */
export type ShardRequest =
  /** `kernel`: the loop each shard runs, the JS fused loop (default) or the WASM kernel. */
  | { type: 'init'; problem: Problem; kernel?: ShardKernel }
  | { type: 'cells'; at: number; part: CellsPart }
  | { type: 'finish' }
  | { type: 'evaluate'; id: number; nat: Float64Array; wantGrad: boolean; coarse?: boolean }
  /** The shard's curvature parts at `nat` (curvature.ts). */
  | { type: 'curvature'; id: number; nat: Float64Array; prec: ItemPrecision };

export type ShardReply =
  | { type: 'took' }
  /**
   * `float32`: the shard's evaluator has a float32 path (the WASM kernel loaded);
   * `fallback`: why it runs the JS loop where the WASM kernel was asked for.
   */
  | { type: 'ready'; float32?: boolean; fallback?: string }
  | { type: 'result'; id: number; ce: number; grad: Float64Array | null }
  | { type: 'curvature'; id: number; part: CurvatureParts }
  /** `id` 0: the set-up failed. */
  | { type: 'error'; id: number; message: string };
