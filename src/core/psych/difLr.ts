/**
 * Model-based DIF: a likelihood-ratio test with one item's parameters freed
 * per group of LLMs, everything else held at the pooled fit.
 *
 * For each item, the LLMs' parameters (θ, s, δ, ρ) and the other items stay as
 * fitted; the item's own parameters are re-estimated once for all LLMs
 * (null) and once per group (alternative). Nominal models free a and c
 * (2(K − 1) per group; the fallback gate G is held at its pooled value);
 * binary models free slope and d (1PL: d only; g and u stay pooled).
 * LR = 2(ℓ_alt − ℓ_null) ~ χ² with (groups − 1) × free df. ℓ counts each cell
 * as one multinomial draw from its observed distribution (soft targets), as in
 * compare.ts. A weak ridge (sd 5) keeps separated groups finite in both fits.
 *
 * Effect: the mean over the focal LLMs of P(key) under the focal group's item
 * minus under the reference group's (negative: harder for the focal group).
 * Flagged: Benjamini–Hochberg q < 0.05 over all items and focal groups.
 */
import type { Dataset } from '../data/types';
import { natFromFit, binaryNatFromFit } from '../eval/predict';
import type { FitJson } from '../fit/types';
import { lbfgs } from '../fit/optim';
import { argmaxAt } from '../model/cells';
import { allBtilde } from '../model/nominal';
import { gateDistance } from '../model/gate';
import { sigmoid } from '../model/math';
import { isBinary, nominalTerms, type NominalModel } from '../model/types';
import { bhAdjust, chi2Sf } from './stats';

const RIDGE = 1 / 25;
export const LR_Q = 0.05;

export interface LrRow {
  item: string;
  benchmark: string;
  reference: string;
  focal: string;
  lrChi2: number;
  df: number;
  p: number;
  /** Benjamini–Hochberg adjusted p over all rows. */
  q: number;
  /** Mean ΔP(key) over focal LLMs, focal item minus reference item. */
  effect: number;
  flag: boolean;
}

/** One item's log-likelihood pieces for a set of LLMs, as a function of its free parameters. */
interface ItemModel {
  nFree: number;
  start: Float64Array;
  /** −ℓ + ridge over LLMs `js`, gradient into g. */
  nll(x: Float64Array, js: number[], g: Float64Array): number;
  pKey(x: Float64Array, j: number): number;
}

function targetsOf(ds: Dataset, hard: boolean, j: number, i: number, out: Float64Array): void {
  const K = ds.nOptions[i];
  const off = (j * ds.I + i) * ds.Kmax;
  out.fill(0);
  if (hard) out[argmaxAt(ds.obs, off, K)] = 1;
  else for (let k = 0; k < K; k++) out[k] = ds.obs[off + k];
}

function nominalItem(fit: FitJson, ds: Dataset, i: number): ItemModel {
  const { nat, layout: L, flags } = natFromFit(fit, ds);
  const K = ds.nOptions[i];
  const Km = ds.Kmax;
  const bt = allBtilde(nat, L, ds.nOptions, ds.key)[i];
  const w = new Float64Array(Km);
  const hard = nominalTerms(fit.model as NominalModel).hardTargets;
  // Per LLM: the gate, the scale (1 − G)s and the fixed part of each option's logit.
  const gate = new Float64Array(ds.J);
  const fixed = new Float64Array(ds.J * K);
  const scale = new Float64Array(ds.J);
  for (let j = 0; j < ds.J; j++) {
    const th = nat[L.theta + j];
    const { d } = flags.fallback
      ? gateDistance(
          flags.gate,
          th,
          bt,
          { a: nat.subarray(L.a), c: nat.subarray(L.c), off: i * Km, K, g: ds.key[i] },
          w,
        )
      : { d: 0 };
    const G = flags.fallback ? sigmoid(nat[L.w0] - nat[L.kappa] * d) : 0;
    gate[j] = G;
    scale[j] = (1 - G) * (flags.sharpness ? nat[L.s + j] : 1);
    for (let k = 0; k < K; k++)
      fixed[j * K + k] =
        scale[j] * (flags.position ? nat[L.delta + j * Km + k] : 0) +
        (flags.fallback ? G * nat[L.rho + j * Km + k] : 0);
  }
  const start = new Float64Array(2 * K);
  for (let k = 0; k < K; k++) {
    start[k] = nat[L.a + i * Km + k];
    start[K + k] = nat[L.c + i * Km + k];
  }
  const p = new Float64Array(K);
  const t = new Float64Array(Km);
  const probs = (x: Float64Array, j: number) => {
    const th = nat[L.theta + j];
    let m = -Infinity;
    for (let k = 0; k < K; k++) {
      p[k] = scale[j] * (x[k] * th + x[K + k]) + fixed[j * K + k];
      if (p[k] > m) m = p[k];
    }
    let s = 0;
    for (let k = 0; k < K; k++) s += p[k] = Math.exp(p[k] - m);
    for (let k = 0; k < K; k++) p[k] /= s;
  };
  return {
    nFree: 2 * (K - 1),
    start,
    nll(x, js, g) {
      let f = 0;
      g.fill(0);
      for (const j of js) {
        if (!ds.observed[j * ds.I + i]) continue;
        probs(x, j);
        targetsOf(ds, hard, j, i, t);
        const th = nat[L.theta + j];
        for (let k = 0; k < K; k++) {
          if (t[k] > 0) f -= t[k] * Math.log(Math.max(p[k], 1e-300));
          const r = (p[k] - t[k]) * scale[j];
          g[k] += r * th;
          g[K + k] += r;
        }
      }
      for (let q = 0; q < 2 * K; q++) {
        f += 0.5 * RIDGE * x[q] * x[q];
        g[q] += RIDGE * x[q];
      }
      return f;
    },
    pKey(x, j) {
      probs(x, j);
      return p[ds.key[i]];
    },
  };
}

function binaryItem(fit: FitJson, ds: Dataset, i: number): ItemModel {
  const { nat, layout: L } = binaryNatFromFit(fit, ds);
  const hard = (fit.settings.binaryTarget ?? 'hard') === 'hard';
  const oneSlope = fit.model === '1pl';
  const gg = nat[L.g + i];
  const uu = nat[L.u + i];
  const t = new Float64Array(ds.Kmax);
  const P = (x: Float64Array, j: number) => {
    const sl = oneSlope ? nat[L.a + i] : x[1];
    const sg = sigmoid(sl * nat[L.theta + j] + x[0]);
    return { P: gg + (uu - gg) * sg, sg, sl };
  };
  return {
    nFree: oneSlope ? 1 : 2,
    start: Float64Array.from([nat[L.d + i], nat[L.a + i]]),
    nll(x, js, g) {
      let f = 0;
      g.fill(0);
      for (const j of js) {
        if (!ds.observed[j * ds.I + i]) continue;
        targetsOf(ds, hard, j, i, t);
        const y = t[ds.key[i]];
        const { P: pr, sg } = P(x, j);
        const pc = Math.min(1 - 1e-12, Math.max(1e-12, pr));
        f -= y * Math.log(pc) + (1 - y) * Math.log(1 - pc);
        const dz = ((pc - y) / (pc * (1 - pc))) * (uu - gg) * sg * (1 - sg);
        g[0] += dz;
        if (!oneSlope) g[1] += dz * nat[L.theta + j];
      }
      for (let q = 0; q < 2; q++) {
        f += 0.5 * RIDGE * x[q] * x[q];
        g[q] += RIDGE * x[q];
      }
      if (oneSlope) g[1] = 0;
      return f;
    },
    pKey: (x, j) => P(x, j).P,
  };
}

async function minimise(m: ItemModel, js: number[]): Promise<{ x: Float64Array; f: number }> {
  const res = await lbfgs(async (x, g) => m.nll(x, js, g), m.start, {
    maxSteps: 200,
    tol: 1e-10,
    gtol: 1e-6,
  });
  const g = new Float64Array(m.start.length);
  return { x: res.x, f: m.nll(res.x, js, g) };
}

/** LR DIF of every item of `fit` on `ds` for each focal group against `reference`. */
export async function lrDif(
  fit: FitJson,
  ds: Dataset,
  group: string[],
  names: string[],
  reference = names[0],
  signal?: AbortSignal,
): Promise<LrRow[]> {
  const rows: LrRow[] = [];
  const members = (g: string) => group.flatMap((x, j) => (x === g ? [j] : []));
  const ref = members(reference);
  for (const focal of names.filter((g) => g !== reference)) {
    const foc = members(focal);
    for (let i = 0; i < ds.I; i++) {
      if (signal?.aborted) throw new DOMException('Aborted', 'AbortError');
      const m = isBinary(fit.model) ? binaryItem(fit, ds, i) : nominalItem(fit, ds, i);
      const pooled = await minimise(m, [...ref, ...foc]);
      const r = await minimise(m, ref);
      const f = await minimise(m, foc);
      const lr = Math.max(0, 2 * (pooled.f - r.f - f.f));
      let effect = 0;
      for (const j of foc) effect += m.pKey(f.x, j) - m.pKey(r.x, j);
      rows.push({
        item: ds.itemIds[i],
        benchmark: ds.benchmarks[i],
        reference,
        focal,
        lrChi2: lr,
        df: m.nFree,
        p: chi2Sf(lr, m.nFree),
        q: NaN,
        effect: foc.length ? effect / foc.length : NaN,
        flag: false,
      });
    }
  }
  const q = bhAdjust(rows.map((r) => r.p));
  rows.forEach((r, k) => {
    r.q = q[k];
    r.flag = q[k] < LR_Q;
  });
  return rows;
}
