/**
 * λ's share of the standard errors (issue 27, item 3). The prior strength λ
 * is itself an estimate: the minimum of a held-out curve that is flat near
 * its minimum, so another draw of the cells would move it, and θ with it.
 * Its uncertainty is measured by the jackknife over the search's folds
 * (each fold left out in turn, λ chosen again from the other folds' losses
 * by the same parabola rule), and carried to θ by θ's slope in log λ,
 * measured by two warm refits of the final fit at λ·e^(±STRENGTH_STEP):
 *   SE(θ_j)² = SE_Laplace(θ_j)² + (∂θ_j/∂log λ)² · sd_jack(log λ)².
 */
import { specsAt, type PriorOverride } from '../model/hprior';
import type { EngineHandle } from './engineHandle';
import { curvatureFor } from './exactBlocks';
import { warmRefit } from './branch';
import type { OptimStep } from './optim';
import { makeObjective, type Posed } from './pose';
import { strengthVertex, vertexThrough, type FoldLosses } from './strength';
import type { FitSettings } from './types';

/**
 * The jackknife over the search's folds of log λ: each fold left out, the
 * vertex of the parabola in log λ through the same three candidates the
 * full search's vertex went through (its best and their neighbours),
 * unclamped, from the other folds' summed losses: re-choosing the best
 * candidate in each leave-one-out made the estimate jump with the folds'
 * draw (reading demo: 0.02 to 0.44 over ten seeds). Where the best
 * candidate is at an end of the grid the others' best is re-chosen and
 * clamped as the search does. `sd` is the jackknife SD,
 * √(R · (F − 1)/F · Σ (u_f − ū)²) over the F folds of R draws (R = 1: the
 * plain jackknife; each cell is in R folds, so the plain one would shrink
 * the variance R-fold); `u` the leave-one-out log λ's.
 */
export function jackknifeLogStrength(f: FoldLosses): { sd: number; u: number[] } {
  const F = f.held.length;
  const pooled = f.loss.map((row) => row.reduce((s, l) => s + l, 0));
  const { best: b, end } = strengthVertex(f.lambdas, pooled);
  const u: number[] = [];
  for (let out = 0; out < F; out++) {
    const loss = f.loss.map((row) => row.reduce((s, l, k) => (k === out ? s : s + l), 0));
    u.push(end >= 0 ? strengthVertex(f.lambdas, loss).u : vertexThrough(f.lambdas, loss, b));
  }
  const mean = u.reduce((s, v) => s + v, 0) / F;
  const ss = u.reduce((s, v) => s + (v - mean) ** 2, 0);
  // With R draws every cell sits in R folds: the F = 5R folds are not F
  // independent units, and the plain jackknife would shrink the variance R-fold.
  return { sd: Math.sqrt(f.draws * ((F - 1) / F) * ss), u };
}

/** The step in log λ of the two refits that measure θ's slope. */
export const STRENGTH_STEP = 0.1;

/** θ's slope in log λ and what measuring it took. */
export interface ThetaSlope {
  /** ∂θ_j/∂log λ in `thetaOf`'s order (central difference). */
  slope: Float64Array;
  passes: number;
  /** Whether both refits passed the convergence test. */
  converged: boolean;
}

/**
 * ∂θ/∂log λ at the optimum `x` of `posed` (its priors at λ): two warm refits
 * to the full convergence test at λ·e^(±STRENGTH_STEP), θ read from each end
 * point by `thetaOf` (which may map it to another order). The priors are left
 * at λ.
 */
export async function thetaSlope(
  posed: Posed,
  x: Float64Array,
  lambda: number,
  c: {
    settings: FitSettings;
    handle: EngineHandle;
    override: PriorOverride;
    thetaOf: (x: Float64Array) => Float64Array;
    signal?: AbortSignal;
    onStep?: (s: OptimStep) => void;
  },
): Promise<ThetaSlope> {
  const eng = await c.handle.create(posed.problem);
  const theta: Float64Array[] = [];
  let passes = 0;
  let converged = true;
  try {
    const obj = makeObjective(posed, eng);
    const curvature = curvatureFor(posed, obj.f, {
      kind: c.settings.curvature ?? 'exact',
      engine: eng,
    });
    for (const sign of [1, -1]) {
      posed.P.priors = specsAt(posed.P.groups, lambda * Math.exp(sign * STRENGTH_STEP), c.override);
      const r = await warmRefit(posed, obj.f, x, c.settings, { ...c, curvature });
      passes += r.passes;
      converged &&= r.converged;
      theta.push(c.thetaOf(r.x));
    }
  } finally {
    posed.P.priors = specsAt(posed.P.groups, lambda, c.override);
    eng.dispose();
  }
  const [up, down] = theta;
  const slope = up.map((v, j) => (v - down[j]) / (2 * STRENGTH_STEP));
  return { slope, passes, converged };
}
