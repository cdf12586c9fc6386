/**
 * The final fit's path in the prior strength λ (issue 27). Where the fallback
 * gate opens the objective has several optima a few units apart, and which
 * one a fit from the documented start reaches jumps as λ moves by a few per
 * cent: ten draws of the search's folds (λ 1.41–1.68 on the economics demo)
 * moved θ by up to 2.25 SE. Following the optimum from one fixed strength
 * down a fixed ladder instead makes the end point a continuous function of λ
 * along one branch: from the documented start at PATH_TOP, then at each rung
 * 2^(k / PATH_RUNGS) above λ, each from the last, then at λ. The ladder
 * depends on λ only through where it stops, so every λ between two rungs
 * starts from the same point. docs/priors.md has the measurements.
 */

/** The ladder's top: the strongest prior grid's weakest candidate (STRENGTH_GRID's 4). */
export const PATH_TOP = 4;

/** Rungs per doubling of λ: 4 (19% apart) reached the same optima as 8 and 16 on the demo. */
export const PATH_RUNGS = 4;

/**
 * The strengths the final fit runs at before λ, weakest first: PATH_TOP and
 * every rung 2^(k / PATH_RUNGS) strictly between λ and it. Empty where λ is
 * at or above the top (the fit starts at λ itself).
 */
export function strengthPath(lambda: number, top = PATH_TOP, rungs = PATH_RUNGS): number[] {
  if (!(lambda < top)) return [];
  const out: number[] = [];
  // Rungs on an exact grid of 2^(1/rungs): k from top's index down.
  const k0 = Math.round(rungs * Math.log2(top));
  for (let k = k0; ; k--) {
    const l = 2 ** (k / rungs);
    if (!(l > lambda * (1 + 1e-9))) break;
    out.push(l);
  }
  return out;
}
