import type { Dataset } from '../data/types';
import { accuracyByLlm } from '../model/cells';
import { logit, meanSd, softplusInv } from '../model/math';
import type { BinaryFreeLayout, NominalFreeLayout } from '../model/params';
import type { BinaryModel, NominalFlags } from '../model/types';

/**
 * The documented start shared by both modes:
 * - θ_j = the LLM's proportion correct, standardised over LLMs (0 if all equal),
 *   so higher θ means more correct;
 * - s_j = 1, δ = ρ = 0, w0 = −2, κ = 1 (as the issue specifies);
 * - c_ik = log of the mean observed probability of option k (floored at 1e-3),
 *   a_ik = the least-squares slope of log p_jik on θ_j, clamped to ±2
 *   (both centred later by the parameterisation).
 */
export function startTheta(ds: Dataset): Float64Array {
  const acc = accuracyByLlm(ds);
  const clean = acc.map((v) => (Number.isFinite(v) ? v : 0.5));
  const { mean, sd } = meanSd(clean);
  return clean.map((v) => (sd > 0 ? (v - mean) / sd : 0));
}

export function nominalStart(
  ds: Dataset,
  F: NominalFreeLayout,
  flags: NominalFlags,
  size: number,
): Float64Array {
  const x = new Float64Array(size);
  const theta = startTheta(ds);
  const { J, I, Kmax } = ds;
  x.set(theta, F.theta);
  if (flags.sharpness) x.fill(softplusInv(1), F.sBar, F.sBar + J);
  if (flags.fallback) {
    x[F.w0] = -2;
    x[F.kappaBar] = softplusInv(1);
  }
  for (let i = 0; i < I; i++) {
    const K = ds.nOptions[i];
    for (let k = 0; k < K; k++) {
      let n = 0;
      let sy = 0;
      let st = 0;
      let stt = 0;
      let sty = 0;
      for (let j = 0; j < J; j++) {
        if (!ds.observed[j * I + i]) continue;
        const y = Math.log(Math.max(ds.obs[(j * I + i) * Kmax + k], 1e-3));
        const t = theta[j];
        n++;
        sy += y;
        st += t;
        stt += t * t;
        sty += t * y;
      }
      if (n === 0) continue;
      x[F.c + i * Kmax + k] = sy / n;
      const varT = stt / n - (st / n) ** 2;
      const slope = varT > 1e-9 ? (sty / n - (st / n) * (sy / n)) / varT : 0;
      x[F.a + i * Kmax + k] = Math.max(-2, Math.min(2, slope));
    }
  }
  return x;
}

export function binaryStart(
  ds: Dataset,
  F: BinaryFreeLayout,
  model: BinaryModel,
  size: number,
): Float64Array {
  const x = new Float64Array(size);
  x.set(startTheta(ds), F.theta);
  const { J, I, Kmax } = ds;
  for (let q = 0; q < F.nA; q++) x[F.a + q] = 1;
  for (let i = 0; i < I; i++) {
    let n = 0;
    let hit = 0;
    for (let j = 0; j < J; j++) {
      if (!ds.observed[j * I + i]) continue;
      n++;
      const off = (j * I + i) * Kmax;
      let best = 0;
      for (let k = 1; k < ds.nOptions[i]; k++) if (ds.obs[off + k] > ds.obs[off + best]) best = k;
      if (best === ds.key[i]) hit++;
    }
    // Add-one smoothing keeps the start finite for items everyone gets right.
    x[F.d + i] = logit((hit + 1) / (n + 2));
    if (model === '3pl' || model === '4pl') x[F.gBar + i] = -2;
    if (model === '4pl') x[F.uBar + i] = 2;
  }
  return x;
}
