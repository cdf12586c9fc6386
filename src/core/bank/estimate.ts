/**
 * A light per-LLM MAP for adaptive testing: θ (and the LLM's own s, δ, ρ)
 * from the items answered so far, every item and global parameter fixed at
 * the bank's values. Same objective and priors as `scoreLlms` (θ ~ N(0, 1),
 * log s ~ N(0, 1), δ ~ N(0, 2²), ρ ~ N(0, 5²)), but on a handful of items
 * with a warm start, so re-estimating after every item is cheap.
 */
import { answersKey, argmaxAt } from '../model/cells';
import { lbfgs } from '../fit/optim';
import { PRIOR_SD } from '../model/params';
import { sigmoid, softplus } from '../model/math';
import { itemGate, neutralTerms, type LlmTerms, type ModelItem, type ResponseModel } from './model';

/** One answered item: its index in the model and the target (K probabilities; binary: [correct]). */
export interface Response {
  item: number;
  y: Float64Array;
}

export interface Estimate {
  theta: number;
  /** 1/√(observed information in θ + 1 from the prior). */
  se: number;
  terms: LlmTerms;
}

/**
 * The target the model is scored on, from an LLM's observed option
 * probabilities: the distribution itself, its one-hot argmax (nrm-hard), or
 * correctness (binary models: argmax = key, as `scoreLlms` scores them).
 */
export function responseTarget(
  m: ResponseModel,
  it: ModelItem,
  probs: ArrayLike<number>,
): Float64Array {
  if (probs.length < it.K)
    throw new Error(`Item ${it.id}: expected ${it.K} option probabilities, got ${probs.length}.`);
  if (it.bin) return Float64Array.of(answersKey(probs, 0, it.K, it.key) ? 1 : 0);
  const top = argmaxAt(probs, 0, it.K);
  const y = new Float64Array(it.K);
  if (m.flags!.hardTargets) y[top] = 1;
  else {
    let s = 0;
    for (let k = 0; k < it.K; k++) s += Math.max(0, probs[k]);
    for (let k = 0; k < it.K; k++) y[k] = s > 0 ? Math.max(0, probs[k]) / s : 1 / it.K;
  }
  return y;
}

interface Blocks {
  sigma: number;
  delta: number;
  rho: number;
  size: number;
}

function blocks(m: ResponseModel, fixTerms: boolean): Blocks {
  const f = fixTerms ? null : m.flags;
  let n = 1;
  const sigma = f?.sharpness ? n++ : -1;
  const delta = f?.position ? (n += m.Kmax) - m.Kmax : -1;
  const rho = f?.fallback ? (n += m.Kmax) - m.Kmax : -1;
  return { sigma, delta, rho, size: n };
}

/**
 * −[y log P + (1 − y) log(1 − P)] with P = g + (u − g) σ(z), and its
 * z-derivative. Where g = 0 or u = 1 the logs are taken in log-sigmoid form,
 * so steep items (slopes of 20–30 are common on small fleets) never hit a
 * probability floor: the loss stays convex in θ and its gradient exact.
 */
function binaryLoss(g: number, u: number, z: number, y: number): [number, number] {
  const sg = sigmoid(z);
  const logP = g > 0 ? Math.log(g + (u - g) * sg) : Math.log(u) - softplus(-z);
  const log1mP = u < 1 ? Math.log(1 - g - (u - g) * sg) : Math.log(1 - g) - softplus(z);
  // d log P/dz and d log(1 − P)/dz, in the forms that stay finite.
  const dLogP = g > 0 ? ((u - g) * sg * (1 - sg)) / (g + (u - g) * sg) : 1 - sg;
  const dLog1mP = u < 1 ? (-(u - g) * sg * (1 - sg)) / (1 - g - (u - g) * sg) : -sg;
  return [-(y * logP + (1 - y) * log1mP), -(y * dLogP + (1 - y) * dLog1mP)];
}

/** CE + priors of one LLM over its responses at free vector x, gradient into g (when given). */
function objective(
  m: ResponseModel,
  rs: Response[],
  B: Blocks,
  fixed: LlmTerms,
  x: Float64Array,
  g: Float64Array | null,
): number {
  const theta = x[0];
  const Kmax = m.Kmax;
  const s = B.sigma > 0 ? Math.exp(x[B.sigma]) : m.flags?.sharpness ? fixed.s : 1;
  const delta = (k: number) => (B.delta > 0 ? x[B.delta + k] : (fixed.delta[k] ?? 0));
  const rho = (k: number) => (B.rho > 0 ? x[B.rho + k] : (fixed.rho[k] ?? 0));
  let ce = 0;
  g?.fill(0);
  let gs = 0;
  const v = new Float64Array(Kmax);
  const p = new Float64Array(Kmax);
  for (const r of rs) {
    const it = m.items[r.item];
    if (it.bin) {
      const z = it.bin.slope * theta + it.bin.d;
      const [ce1, dz] = binaryLoss(it.bin.g, it.bin.u, z, r.y[0]);
      ce += ce1;
      if (g) g[0] += dz * it.bin.slope;
      continue;
    }
    const f = m.flags!;
    const { G, dG } = itemGate(m, it, theta);
    const K = it.K;
    let mx = -Infinity;
    for (let k = 0; k < K; k++) {
      v[k] = it.a[k] * theta + it.c[k] + (f.position ? delta(k) : 0);
      p[k] = (1 - G) * s * v[k] + (f.fallback ? G * rho(k) : 0);
      if (p[k] > mx) mx = p[k];
    }
    let sum = 0;
    for (let k = 0; k < K; k++) sum += p[k] = Math.exp(p[k] - mx);
    let ysum = 0;
    for (let k = 0; k < K; k++) {
      p[k] /= sum;
      ysum += r.y[k];
      if (r.y[k] > 0) ce -= r.y[k] * Math.log(Math.max(p[k], 1e-300));
    }
    if (!g) continue;
    for (let k = 0; k < K; k++) {
      const gz = p[k] * ysum - r.y[k];
      const rk = f.fallback ? rho(k) : 0;
      g[0] += gz * ((1 - G) * s * it.a[k] + dG * (rk - s * v[k]));
      gs += gz * (1 - G) * v[k];
      if (B.delta > 0) g[B.delta + k] += gz * (1 - G) * s;
      if (B.rho > 0) g[B.rho + k] += gz * G;
    }
  }
  // Priors (the score mode's, params.ts).
  ce += 0.5 * theta * theta;
  if (g) g[0] += theta;
  if (B.sigma > 0) {
    const ls = x[B.sigma];
    ce += (0.5 * ls * ls) / PRIOR_SD.logS ** 2;
    if (g) g[B.sigma] = gs * s + ls / PRIOR_SD.logS ** 2;
  }
  for (const [off, sd] of [
    [B.delta, PRIOR_SD.delta],
    [B.rho, PRIOR_SD.rho],
  ] as const) {
    if (off < 0) continue;
    for (let k = 0; k < Kmax; k++) {
      ce += (0.5 * x[off + k] ** 2) / sd ** 2;
      if (g) g[off + k] += x[off + k] / sd ** 2;
    }
  }
  return ce;
}

function centred(x: Float64Array, off: number, n: number): number[] {
  const v = Array.from(x.subarray(off, off + n));
  const mean = v.reduce((a, b) => a + b, 0) / n;
  return v.map((t) => t - mean);
}

export interface EstimateOptions {
  /** Hold s, δ, ρ at `start.terms` and estimate θ only. */
  fixTerms?: boolean;
  signal?: AbortSignal;
  maxSteps?: number;
}

/**
 * MAP of one LLM's θ and terms from its responses, starting at `start`
 * (warm start). With no responses the prior's answer: θ = 0, SE = 1.
 */
export async function estimateLlm(
  m: ResponseModel,
  rs: Response[],
  start: { theta: number; terms: LlmTerms } = { theta: 0, terms: neutralTerms(m.Kmax) },
  opts: EstimateOptions = {},
): Promise<Estimate> {
  const B = blocks(m, opts.fixTerms ?? false);
  const fixed = start.terms;
  if (rs.length === 0) return { theta: 0, se: 1, terms: fixed };
  const x0 = new Float64Array(B.size);
  x0[0] = start.theta;
  if (B.sigma > 0) x0[B.sigma] = Math.log(Math.max(fixed.s, 1e-6));
  for (let k = 0; k < m.Kmax; k++) {
    if (B.delta > 0) x0[B.delta + k] = fixed.delta[k] ?? 0;
    if (B.rho > 0) x0[B.rho + k] = fixed.rho[k] ?? 0;
  }
  const f = async (x: Float64Array, g: Float64Array) => objective(m, rs, B, fixed, x, g);
  const res = await lbfgs(f, x0, {
    maxSteps: opts.maxSteps ?? 300,
    tol: 1e-10,
    gtol: 1e-6,
    signal: opts.signal,
  });
  const x = res.x;
  // Observed information in θ (others held at the estimate) by a central
  // difference of the analytic gradient; the prior contributes 1.
  const h = 1e-4;
  const g = new Float64Array(B.size);
  const xp = Float64Array.from(x);
  xp[0] = x[0] + h;
  objective(m, rs, B, fixed, xp, g);
  const gp = g[0];
  xp[0] = x[0] - h;
  objective(m, rs, B, fixed, xp, g);
  const info = (gp - g[0]) / (2 * h);
  const terms: LlmTerms = {
    s: B.sigma > 0 ? Math.exp(x[B.sigma]) : fixed.s,
    delta: B.delta > 0 ? centred(x, B.delta, m.Kmax) : [...fixed.delta],
    rho: B.rho > 0 ? centred(x, B.rho, m.Kmax) : [...fixed.rho],
  };
  return { theta: x[0], se: info > 0 ? 1 / Math.sqrt(info) : NaN, terms };
}
