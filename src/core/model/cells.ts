import type { Dataset } from '../data/types';

/**
 * The observed cells of a data set in compact, item-major order: what every
 * engine iterates over. Missing cells take no space, so 95%-missing data costs 5%.
 */
export interface Cells {
  J: number;
  I: number;
  Kmax: number;
  n: number;
  cellJ: Uint32Array;
  cellI: Uint32Array;
  /** Targets per cell, n x Kmax: the observed distribution, or one-hot argmax when hard. */
  target: Float32Array;
  /** Correctness target per cell: mass on the key (soft) or argmax == key (hard). */
  correct: Float32Array;
  nOptions: Uint8Array;
  key: Uint8Array;
}

/** Index of the largest value among the first K entries at offset `off` (first on ties). */
export function argmaxAt(x: ArrayLike<number>, off: number, K: number): number {
  let best = 0;
  for (let k = 1; k < K; k++) if (x[off + k] > x[off + best]) best = k;
  return best;
}

/**
 * Whether the distribution at `off` (its first K entries) answers `key`: its
 * argmax (first on ties) is the key. The one definition of "argmax = key"
 * (binary correctness); `isCorrect` applies it to a data set's cell.
 */
export function answersKey(x: ArrayLike<number>, off: number, K: number, key: number): boolean {
  return argmaxAt(x, off, K) === key;
}

/** The answer in cell `cell` (= j·I + i): the option with the most observed mass (first on ties). */
export function answerAt(ds: Dataset, cell: number): number {
  return argmaxAt(ds.obs, cell * ds.Kmax, ds.nOptions[cell % ds.I]);
}

/** Whether cell `cell` (= j·I + i) is correct: its answer is the item's key. */
export function isCorrect(ds: Dataset, cell: number): boolean {
  const i = cell % ds.I;
  return answersKey(ds.obs, cell * ds.Kmax, ds.nOptions[i], ds.key[i]);
}

/** A saturated item: the option every observed LLM puts more than the level on. */
export interface Saturation {
  option: number;
  /** LLMs observed on the item. */
  llms: number;
  /** The smallest probability any of them puts on `option`. */
  min: number;
}

/**
 * Whether every observed LLM puts more than `level` on the same option of
 * item i (null if not, or if no LLM is observed). The one saturation rule: the
 * fit's identification notes and the item flags both read it.
 */
export function saturatedOption(ds: Dataset, i: number, level: number): Saturation | null {
  let option = -1;
  let llms = 0;
  let min = 1;
  for (let j = 0; j < ds.J; j++) {
    if (!ds.observed[j * ds.I + i]) continue;
    const off = (j * ds.I + i) * ds.Kmax;
    const top = argmaxAt(ds.obs, off, ds.nOptions[i]);
    if (ds.obs[off + top] <= level || (option >= 0 && top !== option)) return null;
    option = top;
    min = Math.min(min, ds.obs[off + top]);
    llms++;
  }
  return llms === 0 ? null : { option, llms, min };
}

/** How many cells of `ds` are observed. */
export function countObserved(ds: Dataset): number {
  let n = 0;
  for (let x = 0; x < ds.J * ds.I; x++) n += ds.observed[x];
  return n;
}

/**
 * Visits the observed cells of `ds` in the Cells order (item-major): `q` counts them from 0,
 * `off` is where the cell's row starts in `ds.obs`.
 */
export function forEachCell(
  ds: Dataset,
  visit: (q: number, j: number, i: number, off: number) => void,
): void {
  const { J, I, Kmax } = ds;
  let q = 0;
  for (let i = 0; i < I; i++)
    for (let j = 0; j < J; j++) if (ds.observed[j * I + i]) visit(q++, j, i, (j * I + i) * Kmax);
}

/**
 * Collect the observed cells of `ds`. `hard` turns option targets and the
 * correctness target into their argmax versions.
 */
export function buildCells(ds: Dataset, hard: boolean): Cells {
  const { J, I, Kmax } = ds;
  const n = countObserved(ds);
  const cellJ = new Uint32Array(n);
  const cellI = new Uint32Array(n);
  const target = new Float32Array(n * Kmax);
  const correct = new Float32Array(n);
  forEachCell(ds, (q, j, i, off) => {
    const K = ds.nOptions[i];
    const g = ds.key[i];
    cellJ[q] = j;
    cellI[q] = i;
    if (hard) {
      target[q * Kmax + argmaxAt(ds.obs, off, K)] = 1;
      correct[q] = isCorrect(ds, j * I + i) ? 1 : 0;
    } else {
      for (let k = 0; k < K; k++) target[q * Kmax + k] = ds.obs[off + k];
      correct[q] = ds.obs[off + g];
    }
  });
  return { J, I, Kmax, n, cellJ, cellI, target, correct, nOptions: ds.nOptions, key: ds.key };
}

/**
 * buildCells with the per-cell arrays (cellJ, cellI, target, correct) built on
 * first use, and then held as plain properties: the cells of a posing that may
 * be evaluated only later. The fast path (fit.ts) fits the data's canonical
 * copy and evaluates the data's own posing only after the fit, so the two sets
 * of cells are not held at once while it runs (310 MB at the paper's full
 * shape, 189 × 31,554).
 */
export function lazyCells(ds: Dataset, hard: boolean): Cells {
  const out = { J: ds.J, I: ds.I, Kmax: ds.Kmax, n: countObserved(ds) } as Cells;
  out.nOptions = ds.nOptions;
  out.key = ds.key;
  const heavy = ['cellJ', 'cellI', 'target', 'correct'] as const;
  const build = () => {
    const c = buildCells(ds, hard);
    for (const name of heavy)
      Object.defineProperty(out, name, { value: c[name], writable: true, enumerable: true });
  };
  for (const name of heavy)
    Object.defineProperty(out, name, {
      get: () => (build(), out[name]),
      enumerable: true,
      configurable: true,
    });
  return out;
}

/** Per-LLM share of observed cells whose argmax is the key (raw accuracy). */
export function accuracyByLlm(ds: Dataset): Float64Array {
  const acc = new Float64Array(ds.J);
  for (let j = 0; j < ds.J; j++) {
    let hit = 0;
    let seen = 0;
    for (let i = 0; i < ds.I; i++) {
      if (!ds.observed[j * ds.I + i]) continue;
      seen++;
      if (isCorrect(ds, j * ds.I + i)) hit++;
    }
    acc[j] = seen ? hit / seen : NaN;
  }
  return acc;
}

/**
 * Cells for scoring on one observation channel:
 * - 'option': the distribution (as buildCells);
 * - 'binary': correctness only, argmax = key;
 * - 'wrong': only cells whose argmax is not the key, with the observed mass on
 *   distractors renormalised to 1 (the key's mass dropped).
 */
export function channelCells(
  ds: Dataset,
  channel: 'option' | 'binary' | 'wrong',
  hard = false,
): Cells {
  const all = buildCells(ds, hard || channel === 'binary');
  if (channel !== 'wrong') return all;
  const { Kmax } = all;
  const keep: number[] = [];
  for (let q = 0; q < all.n; q++) {
    const i = all.cellI[q];
    if (!answersKey(all.target, q * Kmax, all.nOptions[i], all.key[i])) keep.push(q);
  }
  const target = new Float32Array(keep.length * Kmax);
  keep.forEach((q, r) => {
    const i = all.cellI[q];
    let s = 0;
    for (let k = 0; k < all.nOptions[i]; k++) if (k !== all.key[i]) s += all.target[q * Kmax + k];
    for (let k = 0; k < all.nOptions[i]; k++)
      if (k !== all.key[i] && s > 0) target[r * Kmax + k] = all.target[q * Kmax + k] / s;
  });
  return {
    ...all,
    n: keep.length,
    cellJ: Uint32Array.from(keep, (q) => all.cellJ[q]),
    cellI: Uint32Array.from(keep, (q) => all.cellI[q]),
    target,
    correct: new Float32Array(keep.length),
  };
}
