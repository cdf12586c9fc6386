/**
 * Binary correctness of the observed cells as a matrix, and the statistics on
 * it (scores, Cronbach's α). Whether one cell is correct (its answer, the
 * observed argmax, is the key) is decided once, by `isCorrect` in
 * model/cells.ts, which the fit's targets, the accuracies, the binary metrics
 * and the page's wrong answers all call.
 */
import type { Dataset } from '../data/types';
import { isCorrect } from '../model/cells';

/** J × I: 1 correct, 0 wrong, NaN missing. */
export function correctnessMatrix(ds: Dataset): Float64Array {
  const y = new Float64Array(ds.J * ds.I).fill(NaN);
  for (let cell = 0; cell < y.length; cell++)
    if (ds.observed[cell]) y[cell] = isCorrect(ds, cell) ? 1 : 0;
  return y;
}

/** Per LLM, the share correct over the observed items among `items` (all when omitted). */
export function scoreShares(y: Float64Array, J: number, I: number, items?: number[]): Float64Array {
  const cols = items ?? Array.from({ length: I }, (_, i) => i);
  return Float64Array.from({ length: J }, (_, j) => {
    let s = 0;
    let n = 0;
    for (const i of cols) {
      const v = y[j * I + i];
      if (Number.isNaN(v)) continue;
      s += v;
      n++;
    }
    return n ? s / n : NaN;
  });
}

/**
 * Cronbach's α of the items `items` on binary correctness, over the LLMs
 * observed on all of them: k/(k − 1)(1 − Σ var_i / var_total). NaN with
 * fewer than 2 items or 2 complete LLMs, or no score variance.
 */
export function cronbachAlpha(
  y: Float64Array,
  J: number,
  I: number,
  items: number[],
): { alpha: number; n: number } {
  const rows: number[] = [];
  for (let j = 0; j < J; j++) if (items.every((i) => !Number.isNaN(y[j * I + i]))) rows.push(j);
  const k = items.length;
  const n = rows.length;
  if (k < 2 || n < 2) return { alpha: NaN, n };
  const variance = (f: (j: number) => number) => {
    let m = 0;
    for (const j of rows) m += f(j) / n;
    let v = 0;
    for (const j of rows) v += (f(j) - m) ** 2;
    return v / (n - 1);
  };
  let sumVar = 0;
  for (const i of items) sumVar += variance((j) => y[j * I + i]);
  const total = variance((j) => items.reduce((s, i) => s + y[j * I + i], 0));
  return { alpha: total > 0 ? (k / (k - 1)) * (1 - sumVar / total) : NaN, n };
}
