/**
 * Held-out prediction metrics (paper Table 1) on two channels:
 * - option: top-1 accuracy (predicted argmax = observed argmax) and log-loss,
 *   the soft cross-entropy −Σ_k p_obs,k log p_pred,k per cell;
 * - binary: correctness y = [observed argmax = key] predicted by P(key):
 *   accuracy of [P ≥ ½] = y, log-loss −y log P − (1 − y) log(1 − P), and Brier (P − y)².
 * Argmax ties go to the first option. Predicted probabilities are clamped to
 * [1e-15, 1 − 1e-15] inside the logarithms.
 */
import type { Dataset } from '../data/types';
import { answersKey, argmaxAt, isCorrect } from '../model/cells';
import type { CellPredictor } from './predict';

export const OPTION_METRICS = ['optionAcc', 'optionLogLoss'] as const;
export const BINARY_METRICS = ['binaryAcc', 'binaryLogLoss', 'binaryBrier'] as const;
export const CELL_METRICS = [...OPTION_METRICS, ...BINARY_METRICS] as const;
export type MetricName = (typeof CELL_METRICS)[number];

/** Mean metrics over a set of cells. */
export type CellMetrics = Record<MetricName, number> & { n: number };

const EPS = 1e-15;
const clampP = (p: number) => Math.min(1 - EPS, Math.max(EPS, p));

/** Metrics of one cell: observed distribution, predicted distribution, K options, key. */
export function cellScores(
  pObs: ArrayLike<number>,
  pPred: ArrayLike<number>,
  K: number,
  key: number,
  offObs = 0,
  offPred = 0,
): Record<MetricName, number> {
  const topObs = argmaxAt(pObs, offObs, K);
  const topPred = argmaxAt(pPred, offPred, K);
  let ll = 0;
  for (let k = 0; k < K; k++) {
    const q = pObs[offObs + k];
    if (q > 0) ll -= q * Math.log(clampP(pPred[offPred + k]));
  }
  return {
    optionAcc: topObs === topPred ? 1 : 0,
    optionLogLoss: ll,
    ...binaryScores(answersKey(pObs, offObs, K, key) ? 1 : 0, pPred[offPred + key]),
  };
}

/** Binary-channel metrics of one cell: correctness y ∈ {0, 1} and predicted P(key). */
export function binaryScores(
  y: number,
  P: number,
): { binaryAcc: number; binaryLogLoss: number; binaryBrier: number } {
  const p = clampP(P);
  return {
    binaryAcc: (P >= 0.5 ? 1 : 0) === y ? 1 : 0,
    binaryLogLoss: -(y * Math.log(p) + (1 - y) * Math.log(1 - p)),
    binaryBrier: (P - y) ** 2,
  };
}

/** Running means of cell metrics. */
export class MetricAccumulator {
  private sums: Record<MetricName, number> = {
    optionAcc: 0,
    optionLogLoss: 0,
    binaryAcc: 0,
    binaryLogLoss: 0,
    binaryBrier: 0,
  };
  n = 0;
  add(s: Partial<Record<MetricName, number>>): void {
    for (const m of CELL_METRICS) this.sums[m] += s[m] ?? 0;
    this.n++;
  }
  result(): CellMetrics {
    const out = { n: this.n } as CellMetrics;
    for (const m of CELL_METRICS) out[m] = this.n ? this.sums[m] / this.n : NaN;
    return out;
  }
}

/**
 * Mean metrics of `pred` over the given cells of `ds` (indices j·I + i, which
 * must be observed).
 */
export function evaluateCells(
  pred: CellPredictor,
  ds: Dataset,
  cells: Iterable<number>,
): CellMetrics {
  const acc = new MetricAccumulator();
  const p = new Float64Array(ds.Kmax);
  for (const cell of cells) {
    const j = Math.floor(cell / ds.I);
    const i = cell - j * ds.I;
    const K = ds.nOptions[i];
    p.fill(0);
    pred.probs(j, i, p);
    acc.add(cellScores(ds.obs, p, K, ds.key[i], cell * ds.Kmax, 0));
  }
  return acc.result();
}

/**
 * Binary-channel metrics of `pred` over the given cells (P(key) only, no
 * option distribution needed).
 */
export function evaluateBinaryCells(
  pred: CellPredictor,
  ds: Dataset,
  cells: Iterable<number>,
): CellMetrics {
  const acc = new MetricAccumulator();
  for (const cell of cells) {
    const j = Math.floor(cell / ds.I);
    const i = cell - j * ds.I;
    const y = isCorrect(ds, cell) ? 1 : 0;
    acc.add(binaryScores(y, pred.pKey(j, i)));
  }
  const r = acc.result();
  r.optionAcc = NaN;
  r.optionLogLoss = NaN;
  return r;
}
