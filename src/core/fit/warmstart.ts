import type { Dataset } from '../data/types';
import { logit, softplusInv } from '../model/math';
import { pose } from './pose';
import type { FitJson } from './types';

/**
 * The optimiser's free vector that reproduces a finished fit (fit.json) on the
 * same data: a warm start for "continue fitting" when only the fit.json is at
 * hand. θ is already standardised, so it is its own free value; sharpness goes
 * back through log (default) or softplus⁻¹ (paper); κ through softplus⁻¹; the
 * asymptotes through logit. Centred blocks are stored centred.
 */
export function freeVectorFromFit(fit: FitJson, ds: Dataset): Float64Array {
  const posed = pose(ds, fit.settings);
  const x = new Float64Array(posed.P.size);
  const Kmax = ds.Kmax;
  const byLlm = new Map(fit.llms.map((l) => [l.id, l]));
  const byItem = new Map(fit.items.map((it) => [it.id, it]));
  if (posed.kind === 'nominal') {
    const F = posed.P.free;
    const f = posed.problem.flags;
    ds.llmIds.forEach((id, j) => {
      const l = byLlm.get(id);
      if (!l) throw new Error(`fit.json has no LLM "${id}"; it belongs to other data.`);
      x[F.theta + j] = l.theta;
      if (f.sharpness) x[F.sBar + j] = fit.mode === 'default' ? Math.log(l.s) : softplusInv(l.s);
      for (let k = 0; k < Kmax; k++) {
        if (f.position) x[F.delta + j * Kmax + k] = l.delta[k] ?? 0;
        if (f.fallback) x[F.rho + j * Kmax + k] = l.rho[k] ?? 0;
      }
    });
    ds.itemIds.forEach((id, i) => {
      const it = byItem.get(id);
      if (!it) throw new Error(`fit.json has no item "${id}"; it belongs to other data.`);
      it.a?.forEach((v, k) => (x[F.a + i * Kmax + k] = v));
      it.c?.forEach((v, k) => (x[F.c + i * Kmax + k] = v));
    });
    if (f.fallback) {
      x[F.w0] = fit.global.w0;
      x[F.kappaBar] = softplusInv(fit.global.kappa);
    }
    return x;
  }
  const F = posed.P.free;
  ds.llmIds.forEach((id, j) => {
    const l = byLlm.get(id);
    if (!l) throw new Error(`fit.json has no LLM "${id}"; it belongs to other data.`);
    x[F.theta + j] = l.theta;
  });
  ds.itemIds.forEach((id, i) => {
    const it = byItem.get(id);
    if (!it) throw new Error(`fit.json has no item "${id}"; it belongs to other data.`);
    if (F.nA === ds.I) x[F.a + i] = it.slope ?? 1;
    else if (F.nA === 1 && i === 0) x[F.a] = it.slope ?? 1;
    x[F.d + i] = it.d ?? 0;
    if (F.uBar > F.gBar) x[F.gBar + i] = logit(it.g ?? 0.1);
    if (F.size > F.uBar) x[F.uBar + i] = logit(it.u ?? 0.9);
  });
  return x;
}
