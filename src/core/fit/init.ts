import type { Dataset } from '../data/types';
import { accuracyByLlm, isCorrect } from '../model/cells';
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
  // Sums over LLMs per (item, option), LLM-major so the J × I × Kmax
  // probabilities are read in storage order (the item-major order strode
  // through them a cache miss per value: minutes at 2,000 × 20,000). Each sum
  // still adds its LLMs in the order j = 0, 1, ..., so the start is unchanged.
  const n = new Float64Array(I);
  const st = new Float64Array(I);
  const stt = new Float64Array(I);
  const sy = new Float64Array(I * Kmax);
  const sty = new Float64Array(I * Kmax);
  for (let j = 0; j < J; j++) {
    const t = theta[j];
    for (let i = 0; i < I; i++) {
      if (!ds.observed[j * I + i]) continue;
      n[i]++;
      st[i] += t;
      stt[i] += t * t;
      const off = (j * I + i) * Kmax;
      for (let k = 0; k < ds.nOptions[i]; k++) {
        const y = Math.log(Math.max(ds.obs[off + k], 1e-3));
        sy[i * Kmax + k] += y;
        sty[i * Kmax + k] += t * y;
      }
    }
  }
  for (let i = 0; i < I; i++) {
    if (n[i] === 0) continue;
    const mt = st[i] / n[i];
    const varT = stt[i] / n[i] - mt ** 2;
    for (let k = 0; k < ds.nOptions[i]; k++) {
      const my = sy[i * Kmax + k] / n[i];
      x[F.c + i * Kmax + k] = my;
      const slope = varT > 1e-9 ? (sty[i * Kmax + k] / n[i] - mt * my) / varT : 0;
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
  const { J, I } = ds;
  for (let q = 0; q < F.nA; q++) x[F.a + q] = 1;
  for (let i = 0; i < I; i++) {
    let n = 0;
    let hit = 0;
    for (let j = 0; j < J; j++) {
      if (!ds.observed[j * I + i]) continue;
      n++;
      if (isCorrect(ds, j * I + i)) hit++;
    }
    // Add-one smoothing keeps the start finite for items everyone gets right.
    x[F.d + i] = logit((hit + 1) / (n + 2));
    if (model === '3pl' || model === '4pl') x[F.gBar + i] = -2;
    if (model === '4pl') x[F.uBar + i] = 2;
  }
  return x;
}
