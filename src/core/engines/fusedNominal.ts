import { btilde } from '../model/btilde';
import { addMarginGradient, margin as marginAt, marginSlope } from '../model/gate';
import type { Cells } from '../model/cells';
import type { Channel, NominalFlags, NominalLayout } from '../model/types';

/** Probabilities are kept this far from 0 and 1 in the binary channel's log-loss. */
const P_FLOOR = 1e-12;

/**
 * Cross-entropy of the nominal family (LLM-NRM eq. 6–13 and its reductions)
 * and its analytic gradient, in one pass over the observed cells. `channel`
 * picks what is observed: the option distribution (the fit), correctness only
 * (P = p_key), or only which distractor on wrongly answered cells
 * (p_k / (1 − p_key), k ≠ key); the latter two serve held-out θ estimation.
 * Values are read from float32 targets and accumulated in float64.
 */
export function nominalCE(
  nat: Float64Array,
  grad: Float64Array | null,
  L: NominalLayout,
  flags: NominalFlags,
  cells: Cells,
  channel: Channel = 'option',
): number {
  const { I, Kmax } = L;
  const { nOptions, key, cellJ, cellI, target } = cells;
  const w0 = nat[L.w0];
  const kappa = nat[L.kappa];
  const scratch = new Float64Array(Kmax);
  const margin = flags.gate === 'margin';
  // b̃ per item: needed by eq. 10's gate only.
  const bt = new Float64Array(I);
  if (flags.fallback && !margin) {
    for (let i = 0; i < I; i++) {
      bt[i] = btildeAt(nat, L, i, nOptions[i], key[i], scratch);
    }
  }
  const gbt = grad && flags.fallback && !margin ? new Float64Array(I) : null;
  // The margin gate's distractor weights at the cell's θ (gate.ts `margin`).
  const wm = new Float64Array(Kmax);
  const na = nat.subarray(L.a);
  const nc = nat.subarray(L.c);
  if (grad) grad.fill(0);
  const z = new Float64Array(Kmax);
  const u = new Float64Array(Kmax);
  const v = new Float64Array(Kmax);
  const e = new Float64Array(Kmax);
  let ce = 0;
  for (let q = 0; q < cells.n; q++) {
    const j = cellJ[q];
    const i = cellI[q];
    const K = nOptions[i];
    const theta = nat[L.theta + j];
    const s = flags.sharpness ? nat[L.s + j] : 1;
    const ai = L.a + i * Kmax;
    const ci = L.c + i * Kmax;
    const dj = L.delta + j * Kmax;
    const rj = L.rho + j * Kmax;
    const g = key[i];
    let G = 0;
    // The gate's distance d (θ − b̃ or f_i(θ)) and dd/dθ.
    let d = 0;
    let dTheta = 1;
    if (flags.fallback) {
      if (margin) {
        d = marginAt(na, nc, i * Kmax, K, g, theta, wm);
        dTheta = marginSlope(na, i * Kmax, K, g, wm);
      } else d = theta - bt[i];
      G = 1 / (1 + Math.exp(-(w0 - kappa * d)));
    }
    let m = -Infinity;
    for (let k = 0; k < K; k++) {
      v[k] = nat[ai + k] * theta + nat[ci + k] + (flags.position ? nat[dj + k] : 0);
      u[k] = s * v[k];
      z[k] = flags.fallback ? (1 - G) * u[k] + G * nat[rj + k] : u[k];
      if (z[k] > m) m = z[k];
    }
    const t0 = q * Kmax;
    // e_k = ∂CE_cell/∂z_k, by observation channel.
    if (channel === 'option') {
      // exp once per option: e[] holds exp(z − m) until it is turned into ∂CE/∂z.
      let sum = 0;
      for (let k = 0; k < K; k++) sum += e[k] = Math.exp(z[k] - m);
      const lse = m + Math.log(sum);
      let tsum = 0;
      for (let k = 0; k < K; k++) {
        const t = target[t0 + k];
        tsum += t;
        ce += t * (lse - z[k]);
      }
      if (grad) for (let k = 0; k < K; k++) e[k] = (tsum * e[k]) / sum - target[t0 + k];
    } else if (channel === 'binary') {
      let sum = 0;
      for (let k = 0; k < K; k++) sum += Math.exp(z[k] - m);
      const lse = m + Math.log(sum);
      const raw = Math.exp(z[g] - lse);
      const P = Math.min(Math.max(raw, P_FLOOR), 1 - P_FLOOR);
      const y = cells.correct[q];
      ce -= y * Math.log(P) + (1 - y) * Math.log(1 - P);
      if (grad) {
        const gP = raw === P ? -y / P + (1 - y) / (1 - P) : 0;
        for (let k = 0; k < K; k++) e[k] = gP * P * ((k === g ? 1 : 0) - Math.exp(z[k] - lse));
      }
    } else {
      // Wrong-only: which distractor, given that the answer is wrong.
      let mw = -Infinity;
      for (let k = 0; k < K; k++) if (k !== g && z[k] > mw) mw = z[k];
      let sum = 0;
      for (let k = 0; k < K; k++) if (k !== g) sum += Math.exp(z[k] - mw);
      const lse = mw + Math.log(sum);
      let tsum = 0;
      for (let k = 0; k < K; k++) {
        if (k === g) continue;
        const t = target[t0 + k];
        tsum += t;
        ce += t * (lse - z[k]);
      }
      if (grad)
        for (let k = 0; k < K; k++)
          e[k] = k === g ? 0 : tsum * Math.exp(z[k] - lse) - target[t0 + k];
    }
    if (!grad) continue;
    let gG = 0;
    let gs = 0;
    let gtheta = 0;
    for (let k = 0; k < K; k++) {
      const gu = flags.fallback ? e[k] * (1 - G) : e[k];
      if (flags.fallback) {
        gG += e[k] * (nat[rj + k] - u[k]);
        grad[rj + k] += e[k] * G;
      }
      gs += gu * v[k];
      const gv = gu * s;
      grad[ai + k] += gv * theta;
      grad[ci + k] += gv;
      if (flags.position) grad[dj + k] += gv;
      gtheta += gv * nat[ai + k];
    }
    if (flags.fallback) {
      const gt = gG * G * (1 - G);
      grad[L.w0] += gt;
      grad[L.kappa] -= gt * d;
      gtheta -= gt * kappa * dTheta;
      if (margin) addMarginGradient(-gt * kappa, theta, K, g, wm, grad, ai, grad, ci);
      else gbt![i] += gt * kappa;
    }
    if (flags.sharpness) grad[L.s + j] += gs;
    grad[L.theta + j] += gtheta;
  }
  if (grad && gbt) addBtildeGradient(nat, grad, gbt, L, nOptions, key, scratch);
  return ce;
}

/**
 * Adds ∂CE/∂b̃_i (`gbt`, from the fallback gate) to `grad` through b̃'s
 * dependence on item i's slopes and intercepts (eq. 10).
 */
export function addBtildeGradient(
  nat: Float64Array,
  grad: Float64Array,
  gbt: Float64Array,
  L: NominalLayout,
  nOptions: Uint8Array,
  key: Uint8Array,
  scratch: Float64Array,
): void {
  const a = nat.subarray(L.a);
  const c = nat.subarray(L.c);
  for (let i = 0; i < L.I; i++) {
    if (gbt[i] === 0) continue;
    const off = i * L.Kmax;
    btilde(a, c, off, nOptions[i], key[i], scratch, {
      gb: gbt[i],
      ga: grad,
      gc: grad,
      gaOff: L.a + off,
      gcOff: L.c + off,
    });
  }
}

/** b̃ of item i read from a natural parameter vector. */
export function btildeAt(
  nat: Float64Array,
  L: NominalLayout,
  i: number,
  K: number,
  g: number,
  scratch: Float64Array,
): number {
  return btilde(nat.subarray(L.a), nat.subarray(L.c), i * L.Kmax, K, g, scratch);
}
