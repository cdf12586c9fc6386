/**
 * The part of the exact curvature blocks (fit/exactBlocks.ts) that lives with
 * the cells. One sweep (sweep.ts) over an item-major run of cells gives each of
 * its items' 2K × 2K block, which is inverted here with the items' prior
 * (floored, stats/eigen.ts), and the LLMs' and the gate's blocks summed over
 * these cells, which the caller adds up over every run and inverts. The same
 * function runs on the caller's thread over all cells, or in each shard worker
 * over its share (parallel/engine.ts), where the items' blocks, the bulk of
 * the work, are then swept and inverted in parallel.
 */
import { floorInverse } from '../stats/eigen';
import type { NominalFlags, NominalLayout } from '../model/types';
import { createSweeper, llmBlockSize, type SweepCells } from './sweep';

/** The items' prior precisions (1/σ², 0 where none) on their slopes a and intercepts c. */
export interface ItemPrecision {
  a: number;
  c: number;
}

/** What one run of cells gives (`createCurvature`). */
export interface CurvatureParts {
  /** The items [from, to) these cells span, each one's inverted block in `items`. */
  from: number;
  to: number;
  /**
   * Items from … to − 1's inverted blocks back to back, as fit/blockInverse.ts
   * stores a block: V (n × n, column-major), then 1/|λ| (n), n = 2K. An item
   * in the span without cells has its prior's alone.
   */
  items: Float64Array;
  /** The LLMs' blocks summed over these cells (sweep.ts SweepBlocks.llm), not inverted. */
  llm: Float64Array;
  /** The gate's 2 × 2 block summed over these cells, not inverted. */
  gate: Float64Array;
}

/** An item block's null directions: its centred slopes, its centred intercepts (member lists). */
export function itemNulls(K: number): Int32Array[] {
  const range = (from: number) => Int32Array.from({ length: K }, (_, q) => from + q);
  return [range(0), range(K)];
}

/** The values an item's inverted block takes: n² + n, n = 2K. */
export function itemInverseSize(K: number): number {
  return 4 * K * K + 2 * K;
}

/**
 * Item block `block` (2K × 2K row-major, its cells' sum; null: none) plus
 * the prior `prec`, inverted into out[o ..]. `A`: scratch of (2·Kmax)².
 */
export function invertItem(
  K: number,
  block: Float64Array | null,
  prec: ItemPrecision,
  A: Float64Array,
  out: Float64Array,
  o: number,
  nulls = itemNulls(K),
): void {
  const n = 2 * K;
  for (let q = 0; q < n * n; q++) A[q] = block ? block[q] : 0;
  for (let k = 0; k < K; k++) {
    A[k * n + k] += prec.a;
    A[(K + k) * n + K + k] += prec.c;
  }
  floorInverse(A, n, nulls, out, o, 1);
}

/** The curvature of one run of cells (`createCurvature`). */
export interface Curvature {
  /** The items [from, to) the cells span. */
  from: number;
  to: number;
  /**
   * The parts at the natural parameters `nat` for the items' prior `prec`;
   * the items' inverses into `items` where given (its length: the span's).
   */
  sweep(nat: Float64Array, prec: ItemPrecision, items?: Float64Array): CurvatureParts;
}

/** The curvature parts of `cells` (item-major; `stride` as sweep.ts's). */
export function createCurvature(
  L: NominalLayout,
  flags: NominalFlags,
  cells: SweepCells,
  stride = L.Kmax,
): Curvature {
  const { Kmax } = L;
  const { n, J, cellI, nOptions } = cells;
  const sw = createSweeper(L, flags, cells, stride);
  const from = n > 0 ? cellI[0] : 0;
  const to = n > 0 ? cellI[n - 1] + 1 : 0;
  // Where each item's inverse starts in `items`.
  const at = new Int32Array(to - from + 1);
  for (let i = from; i < to; i++) at[i - from + 1] = at[i - from] + itemInverseSize(nOptions[i]);
  const nulls = new Map<number, Int32Array[]>();
  const nullsOf = (K: number) => nulls.get(K) ?? nulls.set(K, itemNulls(K)).get(K)!;
  const block = new Float64Array(4 * Kmax * Kmax);
  const A = new Float64Array(4 * Kmax * Kmax);
  const nL = llmBlockSize(Kmax);
  // The current sweep's outputs, read by `onItem`: one `onItem` for every
  // sweep, not a closure per sweep, which V8 keeps optimised (sweep.ts `visit`).
  let cur: { prec: ItemPrecision; items: Float64Array; seen: Uint8Array } | null = null;
  const invert = (i: number, b: Float64Array | null) => {
    const K = nOptions[i];
    invertItem(K, b, cur!.prec, A, cur!.items, at[i - from], nullsOf(K));
  };
  const onItem = (i: number, b: Float64Array) => {
    cur!.seen[i - from] = 1;
    invert(i, b);
  };
  const sweep = (nat: Float64Array, prec: ItemPrecision, into?: Float64Array) => {
    if (into && into.length !== at[to - from]) throw new Error('internal: items span mismatch');
    const items = into ?? new Float64Array(at[to - from]);
    const llm = new Float64Array(J * nL * nL);
    const gate = new Float64Array(4);
    const seen = new Uint8Array(to - from);
    cur = { prec, items, seen };
    try {
      sw.sweep(nat, { grad: null, blocks: { item: block, onItem, llm, gate } });
      for (let i = from; i < to; i++) if (!seen[i - from]) invert(i, null);
    } finally {
      cur = null;
    }
    return { from, to, items, llm, gate };
  };
  return { from, to, sweep };
}
