/**
 * Cell residuals of a fitted model, the raw material of infit and outfit.
 *
 * How soft targets enter: each observed cell is read as ONE multinomial draw
 * X from its observed distribution π (a one-hot row is a draw already). The
 * squared residual of a cell is its expectation over that draw,
 * E_π‖X − p‖² = ‖π − p‖² + (1 − ‖π‖²): the distance between the observed and
 * the predicted distribution plus the observed distribution's own spread. If
 * the data are exactly the model's probabilities (π = p), this equals the
 * model's expected squared residual and the mean squares are 1; a one-hot
 * row gives the textbook residual. (Using ‖π − p‖² alone would make a perfect
 * soft fit look like overfit, MS → 0.)
 *
 * - Option-level (nominal) models: X is the one-hot option vector and p the
 *   model's option distribution. Under the model E‖X − p‖² = 1 − Σp_k² (the
 *   Brier decomposition) and Var‖X − p‖² = 4(Σp_k³ − (Σp_k²)²), since
 *   ‖e_m − p‖² = 1 + Σp² − 2p_m. For K = 2 this is twice the binary residual,
 *   so the mean squares agree with the binary ones.
 * - Binary models: X is correctness (argmax = key, or the mass on the key
 *   when the fit used soft binary targets) and P = P(correct):
 *   E(X − P)² = P(1 − P) = W and Var(X − P)² = W(1 − 4W).
 */
import type { Dataset } from '../data/types';
import { predictorFromFit } from '../eval/predict';
import type { FitJson } from '../fit/types';
import { argmaxAt, countObserved, forEachCell } from '../model/cells';
import { isBinary, nominalTerms, type NominalModel } from '../model/types';

/** Floor on a cell's expected squared residual, so that certain predictions stay finite. */
export const W_FLOOR = 1e-8;

/** Per observed cell (item-major order): squared residual, its model mean and variance. */
export interface CellResiduals {
  kind: 'option' | 'binary';
  n: number;
  cellJ: Uint32Array;
  cellI: Uint32Array;
  /** Expected squared residual over one draw from the observed distribution. */
  sq: Float64Array;
  /** Its expectation under the model (W). */
  expected: Float64Array;
  /** Its variance under the model. */
  variance: Float64Array;
}

/** The residuals of `fit` on the observed cells of `ds` (LLMs and items matched by id). */
export function cellResiduals(fit: FitJson, ds: Dataset): CellResiduals {
  const { Kmax } = ds;
  const n = countObserved(ds);
  const out: CellResiduals = {
    kind: isBinary(fit.model) ? 'binary' : 'option',
    n,
    cellJ: new Uint32Array(n),
    cellI: new Uint32Array(n),
    sq: new Float64Array(n),
    expected: new Float64Array(n),
    variance: new Float64Array(n),
  };
  const pred = predictorFromFit(fit, ds);
  const hard =
    out.kind === 'binary'
      ? (fit.settings.binaryTarget ?? 'hard') === 'hard'
      : nominalTerms(fit.model as NominalModel).hardTargets;
  const p = new Float64Array(Kmax);
  const pi = new Float64Array(Kmax);
  forEachCell(ds, (q, j, i, off) => {
    const K = ds.nOptions[i];
    const g = ds.key[i];
    out.cellJ[q] = j;
    out.cellI[q] = i;
    if (hard) {
      pi.fill(0);
      pi[argmaxAt(ds.obs, off, K)] = 1;
    } else for (let k = 0; k < K; k++) pi[k] = ds.obs[off + k];
    let s: number;
    let w: number;
    let v: number;
    if (out.kind === 'binary') {
      const P = pred.pKey(j, i);
      const x = pi[g];
      s = (x - P) ** 2 + x * (1 - x);
      w = P * (1 - P);
      v = w * (1 - 4 * w);
    } else {
      pred.probs(j, i, p);
      let d2 = 0;
      let pi2 = 0;
      let p2 = 0;
      let p3 = 0;
      for (let k = 0; k < K; k++) {
        d2 += (pi[k] - p[k]) ** 2;
        pi2 += pi[k] * pi[k];
        p2 += p[k] * p[k];
        p3 += p[k] * p[k] * p[k];
      }
      s = d2 + 1 - pi2;
      w = 1 - p2;
      v = 4 * (p3 - p2 * p2);
    }
    out.sq[q] = s;
    out.expected[q] = Math.max(w, W_FLOOR);
    out.variance[q] = Math.max(v, 0);
  });
  return out;
}
