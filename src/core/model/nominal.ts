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
    const { d } = gateDistance(flags.gate, theta, bt, a, c, i * L.Kmax, K, g, out);
    G = sigmoid(nat[L.w0] - nat[L.kappa] * d);
  }
  let m = -Infinity;
  for (let k = 0; k < K; k++) {
    const v =
      nat[L.a + i * L.Kmax + k] * theta +
      nat[L.c + i * L.Kmax + k] +
      (flags.position ? nat[L.delta + j * L.Kmax + k] : 0);
    const z = (1 - G) * s * v + (flags.fallback ? G * nat[L.rho + j * L.Kmax + k] : 0);
    out[k] = z;
    if (z > m) m = z;
  }
  let sum = 0;
  for (let k = 0; k < K; k++) {
    out[k] = Math.exp(out[k] - m);
    sum += out[k];
  }
  for (let k = 0; k < K; k++) out[k] /= sum;
  return G;
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
        a,
        c,
        i * L.Kmax,
        nOptions[i],
        key[i],
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
