import { btilde } from './btilde';
import { gateDistance } from './gate';
import { sigmoid } from './math';
import { BTILDE_EPS, type NominalFlags, type NominalLayout } from './types';

/**
 * LLM-NRM response distribution p_ji (eq. 13) for LLM j on item i (K options,
 * key g), written into out[0..K), with the gate in `flags.gate`'s form
 * (gate.ts). `bt` is b̃_i (from `btilde`), read only by eq. 10's gate.
 * Returns the gate G_ji.
 */
export function nominalProbs(
  nat: Float64Array,
  L: NominalLayout,
  flags: NominalFlags,
  j: number,
  i: number,
  K: number,
  g: number,
  bt: number,
  out: Float64Array,
  thetaOverride?: number,
): number {
  const theta = thetaOverride ?? nat[L.theta + j];
  const s = flags.sharpness ? nat[L.s + j] : 1;
  let G = 0;
  if (flags.fallback) {
    const a = nat.subarray(L.a);
    const c = nat.subarray(L.c);
    const { d } = gateDistance(flags.gate, theta, bt, { a, c, off: i * L.Kmax, K, g }, out);
    G = sigmoid(nat[L.w0] - nat[L.kappa] * d);
  }
  const item = i * L.Kmax;
  const llm = j * L.Kmax;
  const cell: Eq13Cell = {
    theta,
    s,
    G,
    a: nat,
    aOff: L.a + item,
    c: nat,
    cOff: L.c + item,
    delta: nat,
    deltaOff: L.delta + llm,
    rho: nat,
    rhoOff: L.rho + llm,
  };
  eq13Logits(flags, cell, K, out);
  softmaxInPlace(out, K);
  return G;
}

/**
 * One cell's terms in eq. 13: the LLM's θ and s, the gate G, the item's a and c
 * and the LLM's δ and ρ, each K long from its offset (0 when omitted).
 */
export interface Eq13Cell {
  theta: number;
  s: number;
  G: number;
  a: ArrayLike<number>;
  c: ArrayLike<number>;
  delta?: ArrayLike<number>;
  rho?: ArrayLike<number>;
  aOff?: number;
  cOff?: number;
  deltaOff?: number;
  rhoOff?: number;
}

/**
 * Eq. 13's logits for one cell, into z[0..K): z_k = (1 − G) s v_k + G ρ_k with
 * v_k = a_k θ + c_k + δ_k (δ without `flags.position`, ρ without the fallback
 * read as 0; s is 1 without sharpness). With `dz` and the gate's dG/dθ, also
 * z'_k = (1 − G) s a_k + G'(θ)(ρ_k − s v_k). The one place the fit's
 * probabilities (`nominalProbs`) and the bank's (bank/model.ts) take them from.
 */
export function eq13Logits(
  flags: NominalFlags,
  t: Eq13Cell,
  K: number,
  z: Float64Array,
  dz?: { out: Float64Array; dG: number },
): void {
  const { theta, s, G, a, c, delta, rho } = t;
  const [ao, co, dO, ro] = [t.aOff ?? 0, t.cOff ?? 0, t.deltaOff ?? 0, t.rhoOff ?? 0];
  for (let k = 0; k < K; k++) {
    const v = a[ao + k] * theta + c[co + k] + (flags.position ? (delta?.[dO + k] ?? 0) : 0);
    const r = flags.fallback ? (rho?.[ro + k] ?? 0) : 0;
    z[k] = (1 - G) * s * v + G * r;
    if (dz) dz.out[k] = (1 - G) * s * a[ao + k] + dz.dG * (r - s * v);
  }
}

/** Softmax of z[0..K) in place. */
export function softmaxInPlace(z: Float64Array, K: number): void {
  let mx = -Infinity;
  for (let k = 0; k < K; k++) if (z[k] > mx) mx = z[k];
  let sum = 0;
  for (let k = 0; k < K; k++) sum += z[k] = Math.exp(z[k] - mx);
  for (let k = 0; k < K; k++) z[k] /= sum;
}

/**
 * The largest gate G_ji over the observed cells (J × I, `observed` row-major)
 * in `flags.gate`'s form; 0 without the fallback.
 */
export function maxGate(
  nat: Float64Array,
  L: NominalLayout,
  flags: NominalFlags,
  nOptions: Uint8Array,
  key: Uint8Array,
  observed: Uint8Array,
): number {
  if (!flags.fallback) return 0;
  const bt = flags.gate === 'eq10' ? allBtilde(nat, L, nOptions, key) : null;
  const w = new Float64Array(L.Kmax);
  const a = nat.subarray(L.a);
  const c = nat.subarray(L.c);
  let max = 0;
  for (let j = 0; j < L.J; j++)
    for (let i = 0; i < L.I; i++) {
      if (!observed[j * L.I + i]) continue;
      const th = nat[L.theta + j];
      const { d } = gateDistance(
        flags.gate,
        th,
        bt ? bt[i] : 0,
        { a, c, off: i * L.Kmax, K: nOptions[i], g: key[i] },
        w,
      );
      max = Math.max(max, sigmoid(nat[L.w0] - nat[L.kappa] * d));
    }
  return max;
}

/** b̃ for every item of a natural parameter vector. */
export function allBtilde(
  nat: Float64Array,
  L: NominalLayout,
  nOptions: Uint8Array,
  key: Uint8Array,
): Float64Array {
  const out = new Float64Array(L.I);
  const w = new Float64Array(L.Kmax);
  const a = nat.subarray(L.a);
  const c = nat.subarray(L.c);
  for (let i = 0; i < L.I; i++) out[i] = btilde(a, c, i * L.Kmax, nOptions[i], key[i], w);
  return out;
}

/**
 * Items whose b̃ denominator (eq. 10: a_key − Σ w_k a_k) lies within
 * |den| < 2ε, where the smooth guard num·den/(den² + ε²) departs from the
 * paper's num/den by more than 20% (at |den| = 2ε the factor is 0.8).
 */
export function guardedItems(
  nat: Float64Array,
  L: NominalLayout,
  nOptions: Uint8Array,
  key: Uint8Array,
): number[] {
  const out: number[] = [];
  for (let i = 0; i < L.I; i++) {
    const off = i * L.Kmax;
    const K = nOptions[i];
    const g = key[i];
    let m = -Infinity;
    for (let k = 0; k < K; k++) if (k !== g) m = Math.max(m, nat[L.c + off + k]);
    let z = 0;
    let abar = 0;
    for (let k = 0; k < K; k++) {
      if (k === g) continue;
      const w = Math.exp(nat[L.c + off + k] - m);
      z += w;
      abar += w * nat[L.a + off + k];
    }
    const den = nat[L.a + off + g] - abar / z;
    if (Math.abs(den) < 2 * BTILDE_EPS) out.push(i);
  }
  return out;
}
