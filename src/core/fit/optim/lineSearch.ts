/** L-BFGS's line search along a descent direction. */
import { allFinite, type Objective } from './types';
import { dot } from './vector';

/**
 * How far a trial point's objective may lie above the current one and still be
 * judged by its slope alone (Hager & Zhang's approximate Wolfe conditions), as a
 * share of |f|. Near the optimum of a large data set the decrease a step can make
 * (about 1e-9 at the paper's 6 M cells) is below the round-off of the objective's
 * float64 sum; the gradients, summed per parameter, stay accurate.
 */
export const APPROX_WOLFE_REL = 1e-12;

/** Where a line search ended: the last trial point is in `xn`, its gradient in `gn`. */
export interface LineSearchResult {
  /** The weak Wolfe conditions held at the last trial point. */
  accepted: boolean;
  /** The objective at the last trial point. */
  fn: number;
  /** Objective evaluations made. */
  passes: number;
}

/**
 * Weak Wolfe line search by bisection and doubling (Lewis & Overton), from x
 * (objective fx, slope dg = dᵀg < 0) along d, at most 30 trials. Its
 * sufficient-decrease test falls back to Hager & Zhang's approximate form
 * (φ'(t) ≤ (2·1e-4 − 1)·φ'(0), with φ(t) ≤ φ(0) + APPROX_WOLFE_REL·|φ(0)|) where
 * the objective's own change is below its round-off. `afterPass` runs after each
 * evaluation (the fit's cancel check).
 */
export async function wolfeLineSearch(
  f: Objective,
  at: { x: Float64Array; fx: number; d: Float64Array; dg: number },
  xn: Float64Array,
  gn: Float64Array,
  coarse: boolean,
  afterPass: () => Promise<void>,
): Promise<LineSearchResult> {
  const { x, fx, d, dg } = at;
  const n = x.length;
  const fTol = APPROX_WOLFE_REL * Math.abs(fx);
  let lo = 0;
  let hi = Infinity;
  let t = 1;
  let fn = NaN;
  let passes = 0;
  for (let ls = 0; ls < 30; ls++) {
    for (let q = 0; q < n; q++) xn[q] = x[q] + t * d[q];
    fn = await f(xn, gn, coarse);
    passes++;
    await afterPass();
    // A trial point whose objective or gradient is not finite is treated as too far.
    const slope = Number.isFinite(fn) && allFinite(gn) ? dot(gn, d) : NaN;
    const decrease = fn <= fx + 1e-4 * t * dg || (fn <= fx + fTol && slope <= (2e-4 - 1) * dg);
    if (Number.isNaN(slope) || !decrease) hi = t;
    else if (slope < 0.9 * dg) lo = t;
    else return { accepted: true, fn, passes };
    t = hi < Infinity ? (lo + hi) / 2 : 2 * lo;
  }
  return { accepted: false, fn, passes };
}
