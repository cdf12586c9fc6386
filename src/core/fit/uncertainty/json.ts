/**
 * fit.json's standard errors from laplaceSE: θ and s per LLM, every item
 * parameter, w0 and κ, and `seMethod` saying how. When the Laplace step cannot
 * be taken (a curvature block that is not positive definite even with a ridge),
 * the caller keeps the conditional SE(θ) and `seMethod` says so.
 */
import type { Problem } from '../../engines/types';
import type { Mode } from '../../model/params';
import type { FitJson } from '../types';
import { laplaceSE, type LaplaceOptions, type LaplaceResult } from './laplace';
import { reducedLayout } from './cells';

export interface FitUncertainty {
  res: LaplaceResult | null;
  method: string;
}

export function fitUncertainty(
  problem: Problem,
  nat: Float64Array,
  mode: Mode,
  priorPrecision: Float64Array,
  opts: Partial<LaplaceOptions> & { sweepLimit?: number } = {},
): FitUncertainty {
  if (mode === 'score')
    return { res: null, method: 'conditional on the bank: item parameters fixed by design' };
  // The cell sweeps cost ~ cells × width² × K twice on either path; the block
  // path took 233 s at 189 × 5,000 (Kmax 10) on a shared CPU, too long for
  // every fit. Above the budget, say so and keep the conditional SE.
  const R = reducedLayout(problem, mode);
  const sweepOps = 2 * problem.cells.n * (R.pj + R.ng + R.qmax) ** 2 * R.Kmax;
  if (sweepOps > (opts.sweepLimit ?? 1e10))
    return {
      res: null,
      method:
        `conditional on the item parameters (1/√(∂²CE/∂θ² + 1)): the Laplace step would cost ` +
        `~${sweepOps.toExponential(1)} operations (limit ${(opts.sweepLimit ?? 1e10).toExponential(0)})`,
    };
  try {
    const res = laplaceSE(problem, nat, { mode, priorPrecision, ...opts });
    return { res, method: res.method };
  } catch (e) {
    return {
      res: null,
      method:
        `conditional on the item parameters (1/√(∂²CE/∂θ² + 1)): the Laplace step failed ` +
        `(${e instanceof Error ? e.message : String(e)})`,
    };
  }
}

const fin = (v: number) => (Number.isFinite(v) ? v : undefined);

/** Copies the SEs of `u` into a fit.json in place (and returns it). */
export function attachSE(json: FitJson, u: FitUncertainty): FitJson {
  json.seMethod = u.method;
  const r = u.res;
  if (!r) return json;
  const Kmax = json.Kmax;
  json.llms.forEach((l, j) => {
    l.thetaSE = r.thetaSE[j];
    const s = fin(r.sSE[j]);
    if (s !== undefined) l.sSE = s;
  });
  const binary = r.slopeSE.length > 0;
  json.items.forEach((it, i) => {
    it.bSE = r.bSE[i];
    if (!binary) {
      it.aSE = Array.from(r.aSE.subarray(i * Kmax, i * Kmax + it.nOptions));
      it.cSE = Array.from(r.cSE.subarray(i * Kmax, i * Kmax + it.nOptions));
      return;
    }
    it.slopeSE = r.slopeSE[i];
    it.dSE = r.dSE[i];
    const g = fin(r.gSE[i]);
    const uu = fin(r.uSE[i]);
    if (g !== undefined) it.gSE = g;
    if (uu !== undefined) it.uSE = uu;
  });
  if (Number.isFinite(r.w0SE)) {
    json.global.w0SE = r.w0SE;
    json.global.kappaSE = r.kappaSE;
  }
  return json;
}
