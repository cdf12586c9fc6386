/**
 * Size guard: from a file's size and its first ~64 KiB, estimate how many rows
 * and (model, item) cells it holds and how much memory loading it would take,
 * so the UI or CLI can refuse, or offer an item sample (`LoadOptions.sample`),
 * before reading gigabytes.
 *
 * Rows: the mean byte length of the complete rows in the head times the file
 * size. Models (J) and items (I): files are nearly always sorted by model (or by
 * item); then the sorted column's run length in the head says how many cells
 * each model (item) has, and J = cells / run length, I = the distinct items seen
 * (at least the run length); inside the first run, the rest is split evenly
 * (J = I = sqrt(cells), I at least the items seen). Unsorted files use the Chao1
 * richness estimate for both; a harness log is one model. The product J x I is never below the cell count (dense arrays hold every
 * cell). Memory: the Dataset's dense arrays (J x I x Kmax float32 plus per-cell
 * arrays), the scatter's transient per-cell arrays, the parser's growable
 * per-row arrays at their worst (twice the rows), ids, and the text chunks.
 */
import { DEFAULT_MAX_DENSE_BYTES, denseBytes } from './assemble.ts';
import { detectFormat, type FileFormat } from './detect.ts';
import { sampleHead, type HeadSample } from './head.ts';
import { DEFAULT_CHUNK } from './load.ts';

/** What `estimateLoad` looks at. */
export interface EstimateInput {
  fileName: string;
  /** Size in bytes (File.size, fs.stat). */
  fileSize: number;
  /** The first ~64 KiB of the file, decoded. */
  head: string;
  /** Skips detection (which throws DataError on an unrecognisable head). */
  format?: FileFormat;
}

/** Limits for `estimateLoad`. */
export interface EstimateOptions {
  memoryBudgetBytes: number;
  /** Chunk size the load will use (default 4 MiB). */
  chunkSize?: number;
}

/** The estimate for one file. */
export interface LoadEstimate {
  format: FileFormat;
  /** Data rows (lines for harness logs). */
  estimatedRows: number;
  /** (model, item) cells of the dense layout: estimatedModels x estimatedItems. */
  estimatedCells: number;
  estimatedModels: number;
  estimatedItems: number;
  /** Largest option count seen (option columns for wide files). */
  kmax: number;
  /** Peak bytes while loading: the Dataset's typed arrays plus transient ones. */
  estimatedBytes: number;
  /** estimatedBytes within the budget, and the dense arrays within the loader's cap. */
  fits: boolean;
  /** One sentence for the user. */
  suggestion: string;
  /** When it does not fit: the share of items to sample (LoadOptions.sample) so it would. */
  sampleFraction?: number;
}

/** Parser bytes per row: indices and values in growable arrays (long rows are smaller). */
const rowBytes = (format: FileFormat, stride: number) => (format === 'long' ? 17 : 12 + 4 * stride);
/** Growable arrays double, so they hold up to twice the rows. */
const GROWTH = 2;
/** Per-id overhead besides its characters: maps, per-item arrays, object headers. */
const ID_OVERHEAD = 96;

/** The shape of a load, estimated or actual, for `loadBytes`. */
export interface LoadShape {
  format: FileFormat;
  rows: number;
  J: number;
  I: number;
  kmax: number;
  stride: number;
  idChars: number;
  fileSize: number;
  chunkSize?: number;
}

/** Peak bytes of a load of the given shape, split into what sampling items scales and the rest. */
export function loadBytes(s: LoadShape): { total: number; perItem: number; fixed: number } {
  const chunk = 4 * Math.min(s.chunkSize ?? DEFAULT_CHUNK, s.fileSize);
  const ids = (n: number) => n * (ID_OVERHEAD + 2 * s.idChars);
  const perItem =
    s.format === 'items'
      ? ids(s.rows) + 2 * s.fileSize
      : denseBytes(s.J, s.I, s.kmax, s.format === 'long') +
        GROWTH * s.rows * rowBytes(s.format, s.stride) +
        ids(s.I);
  const fixed = chunk + ids(s.J);
  return { total: perItem + fixed, perItem, fixed };
}

function runs(xs: string[]): { count: number; last: number } {
  let count = 0;
  let last = 0;
  xs.forEach((x, n) => {
    if (n > 0 && x === xs[n - 1]) last++;
    else [count, last] = [count + 1, 1];
  });
  return { count, last };
}

/** Chao1 estimate of distinct values in the population, from a sample. */
function chao1(xs: string[], cap: number): number {
  const freq = new Map<string, number>();
  for (const x of xs) freq.set(x, (freq.get(x) ?? 0) + 1);
  let f1 = 0;
  let f2 = 0;
  for (const f of freq.values())
    if (f === 1) f1++;
    else if (f === 2) f2++;
  return Math.min(cap, Math.round(freq.size + (f1 * (f1 - 1)) / (2 * (f2 + 1))));
}

/** J and I for `cells` cells, from the head's cells in file order. */
function shape(h: HeadSample, cells: number): { J: number; I: number } {
  const nM = new Set(h.models).size;
  const nI = new Set(h.items).size;
  const r = h.models.length;
  if (r === 0) return { J: 1, I: Math.max(1, cells) };
  if (h.complete || cells <= r) return { J: nM, I: nI };
  const m = runs(h.models);
  const i = runs(h.items);
  let J: number;
  let I: number;
  if (nM >= 2 && m.count === nM) {
    const L = (r - m.last) / (nM - 1);
    [J, I] = [Math.max(nM, Math.ceil(cells / L)), Math.max(nI, Math.round(L))];
  } else if (nI >= 2 && nM >= 2 && i.count === nI) {
    const L = (r - i.last) / (nI - 1);
    [J, I] = [Math.max(nM, Math.round(L)), Math.max(nI, Math.ceil(cells / L))];
  } else if (nM === 1) {
    // Still inside the first model: it has at least nI items; split the rest evenly.
    I = Math.max(nI, Math.round(Math.sqrt(cells)));
    J = Math.ceil(cells / I);
  } else if (nI === 1) {
    J = Math.max(nM, Math.round(Math.sqrt(cells)));
    I = Math.ceil(cells / J);
  } else [J, I] = [chao1(h.models, cells), chao1(h.items, cells)];
  if (J * I < cells) I = Math.ceil(cells / J);
  return { J, I };
}

const size = (b: number) =>
  b >= 1024 ** 3 ? `${(b / 1024 ** 3).toFixed(1)} GiB` : `${(b / 1024 ** 2).toFixed(1)} MiB`;

/** Largest fraction (2 significant digits, rounded down) that fits, or undefined. */
function fittingFraction(bytes: { perItem: number; fixed: number }, budget: number, dense: number) {
  const byBudget = (0.9 * budget - bytes.fixed) / bytes.perItem;
  const byCap = dense > 0 ? (0.9 * DEFAULT_MAX_DENSE_BYTES) / dense : 1;
  const f = Math.min(byBudget, byCap, 1);
  if (!(f >= 0.001)) return undefined;
  const p = 10 ** (Math.floor(Math.log10(f)) - 1);
  return Math.floor(f / p) * p;
}

/**
 * Estimates rows, cells and peak memory of loading one file, and whether it fits
 * `memoryBudgetBytes`; when it does not, suggests an item sample fraction.
 * Estimates are for one file (a harness log is one model); throws DataError when
 * the format is not given and cannot be detected from the head.
 */
export function estimateLoad(input: EstimateInput, opts: EstimateOptions): LoadEstimate {
  const format = input.format ?? detectFormat(input.fileName, input.head);
  const h = sampleHead(input.fileName, input.fileSize, input.head, format);
  const rowBytesInFile = h.rows > 0 ? h.bodyBytes / h.rows : Math.max(1, input.head.length);
  const rows = h.complete
    ? h.rows
    : Math.max(h.rows, Math.round((input.fileSize - h.headerBytes) / rowBytesInFile));
  const cells = format === 'items' ? 0 : Math.ceil(rows / h.rowsPerCell);
  const { J, I } =
    format === 'items'
      ? { J: 0, I: rows }
      : format === 'harness'
        ? { J: 1, I: cells }
        : shape(h, cells);
  const bytes = loadBytes({ ...h, format, rows, J, I, fileSize: input.fileSize, ...opts });
  const dense = format === 'items' ? 0 : denseBytes(J, I, h.kmax, format === 'long');
  const budget = opts.memoryBudgetBytes;
  const fits = bytes.total <= budget && dense <= DEFAULT_MAX_DENSE_BYTES;
  const est = {
    format,
    estimatedRows: rows,
    estimatedCells: J * I,
    estimatedModels: J,
    estimatedItems: I,
    kmax: h.kmax,
    estimatedBytes: Math.round(bytes.total),
  };
  const need = `needs about ${size(bytes.total)} (budget ${size(budget)})`;
  if (fits) return { ...est, fits, suggestion: `fits: ${need}` };
  const fraction = format === 'items' ? undefined : fittingFraction(bytes, budget, dense);
  if (fraction === undefined)
    return {
      ...est,
      fits,
      suggestion: `too large: ${need}, and even a 0.1% sample of items would not fit; raise the budget or split the file`,
    };
  const pct = `${Number((fraction * 100).toPrecision(2))}%`;
  return {
    ...est,
    fits,
    sampleFraction: fraction,
    suggestion:
      `too large: ${need}; load a ${pct} sample of items ` +
      `(sample: { fraction: ${fraction}, seed: 1 }) or fewer models per load`,
  };
}
