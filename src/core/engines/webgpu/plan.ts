import type { Cells } from '../../model/cells';

/**
 * How the observed cells are laid out in GPU buffers. Cells are grouped by
 * item (a stable counting sort, so any input order works) and split into
 * chunks of whole items, so that every per-chunk buffer stays under the byte
 * limit and each item's cells sit contiguously inside one chunk: the per-item
 * reduction is then one workgroup over a contiguous range, with no atomics.
 */
export interface GpuChunk {
  /** Global item range [item0, item1). */
  item0: number;
  item1: number;
  /** Observed cells in this chunk. */
  nCells: number;
  /** LLM of each chunk-local cell, item-major. */
  cellJ: Uint32Array;
  /** Targets of each chunk-local cell: `targetWidth` float32 values per cell. */
  target: Float32Array;
  /**
   * Item table: chunk-local cell offsets start[0..nItems] (nItems + 1 values),
   * then nOptions | key << 8 for each item (nItems values).
   */
  items: Uint32Array;
  /**
   * Cells by LLM (CSR): start[0..J] (J + 1 values), then the chunk-local cell
   * indices of LLM 0, LLM 1, … (nCells values), in item order.
   */
  byLlm: Uint32Array;
}

export interface ChunkSizing {
  /** Floats of target data per cell (Kmax for option targets, 1 for correctness). */
  targetWidth: number;
  /** Floats of per-cell gradient record. */
  recordWidth: number;
  /** Floats of item parameters per item. */
  itemParamWidth: number;
  /** Floats of per-item output per item. */
  itemOutWidth: number;
  /** Largest size of any one buffer, in bytes. */
  maxBytes: number;
}

/** Bytes of the largest per-chunk buffer holding `items` items and `cells` cells. */
export function chunkBytes(s: ChunkSizing, J: number, items: number, cells: number): number {
  return (
    4 *
    Math.max(
      cells * Math.max(s.targetWidth, s.recordWidth, 1),
      J + 1 + cells,
      2 * items + 1,
      items * Math.max(s.itemParamWidth, s.itemOutWidth),
    )
  );
}

/**
 * Splits the cells into chunks of whole items under `s.maxBytes` per buffer.
 * `source` picks the target data: the option distribution (n × Kmax) or the
 * correctness column. Throws when one item alone does not fit.
 */
export function planChunks(cells: Cells, source: 'target' | 'correct', s: ChunkSizing): GpuChunk[] {
  const { J, I, Kmax, n } = cells;
  const tw = s.targetWidth;
  if (source === 'target' ? tw !== Kmax : tw !== 1) {
    throw new Error(`target width ${tw} does not match source ${source}`);
  }
  // Counting sort of cells by item (stable).
  const itemStart = new Uint32Array(I + 1);
  for (let q = 0; q < n; q++) {
    const i = cells.cellI[q];
    if (i >= I) throw new Error(`cell ${q} has item ${i} outside 0..${I - 1}`);
    if (cells.cellJ[q] >= J)
      throw new Error(`cell ${q} has LLM ${cells.cellJ[q]} outside 0..${J - 1}`);
    itemStart[i + 1]++;
  }
  for (let i = 0; i < I; i++) itemStart[i + 1] += itemStart[i];
  const order = new Uint32Array(n);
  const fill = itemStart.slice(0, I);
  for (let q = 0; q < n; q++) order[fill[cells.cellI[q]]++] = q;

  const chunks: GpuChunk[] = [];
  let i0 = 0;
  while (i0 < I) {
    let i1 = i0;
    while (i1 < I) {
      const c = itemStart[i1 + 1] - itemStart[i0];
      if (chunkBytes(s, J, i1 + 1 - i0, c) > s.maxBytes) break;
      i1++;
    }
    if (i1 === i0) {
      throw new Error(
        `item ${i0} (${itemStart[i0 + 1] - itemStart[i0]} cells) does not fit in a ` +
          `${s.maxBytes}-byte GPU buffer`,
      );
    }
    chunks.push(buildChunk(cells, source, tw, order, itemStart, i0, i1));
    i0 = i1;
  }
  return chunks;
}

function buildChunk(
  cells: Cells,
  source: 'target' | 'correct',
  tw: number,
  order: Uint32Array,
  itemStart: Uint32Array,
  i0: number,
  i1: number,
): GpuChunk {
  const { J, Kmax } = cells;
  const c0 = itemStart[i0];
  const nCells = itemStart[i1] - c0;
  const nItems = i1 - i0;
  const cellJ = new Uint32Array(nCells);
  const target = new Float32Array(nCells * tw);
  for (let r = 0; r < nCells; r++) {
    const q = order[c0 + r];
    cellJ[r] = cells.cellJ[q];
    if (source === 'correct') target[r] = cells.correct[q];
    else target.set(cells.target.subarray(q * Kmax, (q + 1) * Kmax), r * Kmax);
  }
  const items = new Uint32Array(2 * nItems + 1);
  for (let t = 0; t <= nItems; t++) items[t] = itemStart[i0 + t] - c0;
  for (let t = 0; t < nItems; t++) {
    items[nItems + 1 + t] = cells.nOptions[i0 + t] | (cells.key[i0 + t] << 8);
  }
  const byLlm = new Uint32Array(J + 1 + nCells);
  for (let r = 0; r < nCells; r++) byLlm[cellJ[r] + 1]++;
  for (let j = 0; j < J; j++) byLlm[j + 1] += byLlm[j];
  const next = byLlm.slice(0, J);
  for (let r = 0; r < nCells; r++) byLlm[J + 1 + next[cellJ[r]]++] = r;
  return { item0: i0, item1: i1, nCells, cellJ, target, items, byLlm };
}
