/** Seeded fold assignments and held-out copies of a data set. */
import type { Dataset } from '../data/types';
import { createRng, permutation } from '../model/rng';

/**
 * Cell-level K-fold assignment: every observed cell (index j·I + i) gets a
 * fold in 0..k−1, unobserved cells −1. Cells are shuffled with `seed` and dealt
 * round-robin, so the folds partition the observed cells and differ in size by
 * at most one.
 */
export function cellFolds(ds: Dataset, k: number, seed: number): Int16Array {
  if (!Number.isInteger(k) || k < 2)
    throw new RangeError(`Folds must be an integer ≥ 2, got ${k}.`);
  const fold = new Int16Array(ds.J * ds.I).fill(-1);
  const cells: number[] = [];
  for (let c = 0; c < ds.J * ds.I; c++) if (ds.observed[c]) cells.push(c);
  if (cells.length < k)
    throw new RangeError(`${cells.length} observed cells cannot fill ${k} folds.`);
  const perm = permutation(cells.length, createRng(seed));
  perm.forEach((p, r) => (fold[cells[p]] = r % k));
  return fold;
}

/** The cells (j·I + i) of one fold. */
export function foldCells(fold: Int16Array, f: number): number[] {
  const out: number[] = [];
  for (let c = 0; c < fold.length; c++) if (fold[c] === f) out.push(c);
  return out;
}

/**
 * Group-level K-fold assignment of n units (LLMs): unit → fold in 0..k−1,
 * shuffled with `seed`, dealt round-robin.
 */
export function unitFolds(n: number, k: number, seed: number): Int16Array {
  if (!Number.isInteger(k) || k < 2)
    throw new RangeError(`Folds must be an integer ≥ 2, got ${k}.`);
  if (n < k) throw new RangeError(`${n} units cannot fill ${k} folds.`);
  const fold = new Int16Array(n);
  permutation(n, createRng(seed)).forEach((u, r) => (fold[u] = r % k));
  return fold;
}

export { hideCells } from '../data/hide';
