import type { Cells } from '../../model/cells';

/**
 * How the observed cells are laid out for the tensor engines.
 *
 * Cells are grouped by item into rows: a chunk is a [rows, width] grid whose
 * row r holds the observed cells of one item (padded to `width` slots). Item
 * parameters then broadcast over a row instead of being gathered per cell, so
 * their gradient is a plain sum — no scatter (WebGL's scatter and segment-sum
 * cost O(items × cells) per chunk). Only the LLM parameters are gathered.
 *
 * Items are sorted by their number of observed cells so that rows in a chunk
 * have similar lengths and padding stays small; chunks are capped in padded
 * cells so that no uploaded tensor exceeds the GPU's buffer limits (WebGPU
 * buffers of 128–256 MiB; tfjs returns zeros past the limit instead of failing).
 */
export interface ChunkPlan {
  /** Global item index per row. */
  items: Int32Array;
  /** Cell slots per row: the largest observed-cell count among the rows. */
  width: number;
  /** Index into `Cells` per (row, slot), row-major; −1 marks padding. */
  cells: Int32Array;
}

/**
 * Padded-element budget (cells × Kmax) per chunk: 2²¹ float32 = 8 MiB per
 * [cells, Kmax] tensor. Backprop keeps a few dozen such tensors alive at once,
 * so a chunk peaks at a few hundred MiB of GPU memory.
 */
export const DEFAULT_CHUNK_ELEMENTS = 1 << 21;

/**
 * Below this many padded cells a chunk is not split just to reduce padding:
 * each chunk costs a round of kernel launches and a read-back.
 */
const MIN_SPLIT_CELLS = 1 << 16;

/** A chunk is split when a row would be shorter than this share of the chunk width. */
const MIN_FILL = 0.8;

/**
 * Groups the items with observed cells into chunks of at most
 * `maxCellsPerChunk` padded cells (a single item longer than that gets its own
 * chunk). Items without observed cells appear in no chunk.
 */
export function planChunks(cells: Cells, maxCellsPerChunk: number): ChunkPlan[] {
  const { I, n, cellI } = cells;
  // Counting sort of cells by item: start[i]..start[i+1] in `order`.
  const count = new Int32Array(I);
  for (let q = 0; q < n; q++) count[cellI[q]]++;
  const start = new Int32Array(I + 1);
  for (let i = 0; i < I; i++) start[i + 1] = start[i] + count[i];
  const order = new Int32Array(n);
  const next = start.slice(0, I);
  for (let q = 0; q < n; q++) order[next[cellI[q]]++] = q;

  const items: number[] = [];
  for (let i = 0; i < I; i++) if (count[i] > 0) items.push(i);
  // Longest first; ties keep item order (Array.prototype.sort is stable).
  items.sort((x, y) => count[y] - count[x]);

  const plans: ChunkPlan[] = [];
  let r0 = 0;
  while (r0 < items.length) {
    const width = count[items[r0]];
    let r1 = r0 + 1;
    while (r1 < items.length) {
      const padded = (r1 - r0 + 1) * width;
      if (padded > maxCellsPerChunk) break;
      if (count[items[r1]] < MIN_FILL * width && (r1 - r0) * width >= MIN_SPLIT_CELLS) break;
      r1++;
    }
    const rows = r1 - r0;
    const slot = new Int32Array(rows * width).fill(-1);
    for (let r = 0; r < rows; r++) {
      const i = items[r0 + r];
      for (let k = 0; k < count[i]; k++) slot[r * width + k] = order[start[i] + k];
    }
    plans.push({ items: Int32Array.from(items.slice(r0, r1)), width, cells: slot });
    r0 = r1;
  }
  return plans;
}
