import type { Problem } from '../engines/types';
import { btilde } from '../model/btilde';
import { sigmoid } from '../model/math';
import { nominalProbs } from '../model/nominal';
import type { NominalFreeLayout, Parameterisation } from '../model/params';

/**
 * A diagonal inverse-curvature preconditioner for L-BFGS from the Gauss–Newton
 * (expected Fisher) curvature at the current point, in the optimiser's free
 * coordinates, plus the priors' precision. A parameter that moves logit k of a
 * cell by d_k has curvature m·Var_p(d) = m(Σ p_k d_k² − (Σ p_k d_k)²) there.
 *
 * Unlike the count preconditioner, this sees the fallback gate: an item's a
 * and c also move b̃ (eq. 10) and so the gate G of every LLM on the item,
 * d_k = ... + (ρ_k − u_k)·κG(1−G)·∂b̃/∂(a, c). Around hard items that path is
 * far stiffer than the observation counts suggest, and a scalar L-BFGS
 * scaling cannot bridge it. Only the nominal family with the gate uses this.
 */
export function curvaturePreconditioner(
  problem: Extract<Problem, { kind: 'nominal' }>,
  P: Parameterisation & { free: NominalFreeLayout },
  x: Float64Array,
  nat: Float64Array,
  /** θ is standardised over LLMs (the default mode). */
  standardised: boolean,
): Float64Array {
  const { layout: L, flags, cells } = problem;
  const { Kmax } = L;
  const F = P.free;
  const h = P.priorPrecision(); // natural-slot prior precision, local coordinates
  const p = new Float64Array(Kmax);
  const r = new Float64Array(Kmax);
  const w = new Float64Array(Kmax);
  const ga = new Float64Array(Kmax);
  const gc = new Float64Array(Kmax);
  const bt = new Float64Array(L.I);
  const aAll = nat.subarray(L.a);
  const cAll = nat.subarray(L.c);
  let hw0 = 0;
  let hk = 0;
  for (let i = 0; i < L.I; i++)
    bt[i] = btilde(aAll, cAll, i * Kmax, cells.nOptions[i], cells.key[i], w);
  let lastItem = -1;
  for (let q = 0; q < cells.n; q++) {
    const j = cells.cellJ[q];
    const i = cells.cellI[q];
    const K = cells.nOptions[i];
    if (i !== lastItem) {
      // ∂b̃/∂a, ∂b̃/∂c of item i (cells are item-major, so once per item).
      ga.fill(0);
      gc.fill(0);
      if (flags.fallback)
        btilde(aAll, cAll, i * Kmax, K, cells.key[i], w, { gb: 1, ga, gc, gaOff: 0, gcOff: 0 });
      lastItem = i;
    }
    const G = nominalProbs(nat, L, flags, j, i, K, bt[i], p);
    let m = 0;
    for (let k = 0; k < K; k++) m += cells.target[q * Kmax + k];
    const th = nat[L.theta + j];
    const s = flags.sharpness ? nat[L.s + j] : 1;
    const kap = flags.fallback ? nat[L.kappa] : 0;
    const gg = G * (1 - G);
    // r_k: how logit k moves per unit of b̃ (through the gate).
    let e1 = 0;
    let e2 = 0;
    let u1 = 0;
    let u2 = 0;
    let t1 = 0;
    let t2 = 0;
    for (let k = 0; k < K; k++) {
      const u =
        s *
        (nat[L.a + i * Kmax + k] * th +
          nat[L.c + i * Kmax + k] +
          (flags.position ? nat[L.delta + j * Kmax + k] : 0));
      const diff = flags.fallback ? nat[L.rho + j * Kmax + k] - u : 0;
      r[k] = diff * kap * gg;
      e1 += p[k] * r[k];
      e2 += p[k] * r[k] * r[k];
      const ds = (1 - G) * u;
      u1 += p[k] * ds;
      u2 += p[k] * ds * ds;
      const dt = (1 - G) * s * nat[L.a + i * Kmax + k] - r[k];
      t1 += p[k] * dt;
      t2 += p[k] * dt * dt;
    }
    /** m · Var_p(α·1[k = mm] + β·r_k). */
    const v = (alpha: number, beta: number, mm: number) => {
      const s2 = alpha * alpha * p[mm] + 2 * alpha * beta * p[mm] * r[mm] + beta * beta * e2;
      const s1 = alpha * p[mm] + beta * e1;
      return m * Math.max(0, s2 - s1 * s1);
    };
    const lin = (1 - G) * s;
    for (let k = 0; k < K; k++) {
      h[L.a + i * Kmax + k] += v(lin * th, ga[k], k);
      h[L.c + i * Kmax + k] += v(lin, gc[k], k);
      if (flags.position) h[L.delta + j * Kmax + k] += v(lin, 0, k);
      if (flags.fallback) h[L.rho + j * Kmax + k] += v(G, 0, k);
    }
    h[L.theta + j] += m * Math.max(0, t2 - t1 * t1);
    if (flags.sharpness) h[L.s + j] += m * Math.max(0, u2 - u1 * u1);
    if (flags.fallback) {
      // w0 moves every logit by (ρ_k − u_k)·G(1 − G) = r_k / κ; κ by −r_k (θ − b̃)/κ.
      const sc = kap > 0 ? 1 / kap : 0;
      hw0 += m * Math.max(0, e2 - e1 * e1) * sc * sc;
      const tk = (th - bt[i]) * sc;
      hk += m * Math.max(0, e2 - e1 * e1) * tk * tk;
    }
  }
  const out = new Float64Array(P.size);
  const inv = (v: number) => 1 / (v + 1e-6);
  // θ is standardised: a unit step in free θ is 1/sd in natural θ.
  let sd = 1;
  {
    let mean = 0;
    for (let j = 0; j < L.J; j++) mean += x[F.theta + j] / L.J;
    let v = 0;
    for (let j = 0; j < L.J; j++) v += (x[F.theta + j] - mean) ** 2 / L.J;
    if (standardised && v > 0) sd = Math.sqrt(v);
  }
  for (let j = 0; j < L.J; j++) {
    out[F.theta + j] = inv(h[L.theta + j] / (sd * sd));
    if (F.delta > F.sBar) out[F.sBar + j] = inv(h[L.s + j]);
    for (let k = 0; k < Kmax; k++) {
      if (F.rho > F.delta) out[F.delta + j * Kmax + k] = inv(h[L.delta + j * Kmax + k]);
      if (F.a > F.rho) out[F.rho + j * Kmax + k] = inv(h[L.rho + j * Kmax + k]);
    }
  }
  for (let q = 0; q < L.I * Kmax; q++) {
    out[F.a + q] = inv(h[L.a + q]);
    out[F.c + q] = inv(h[L.c + q]);
  }
  if (flags.fallback) {
    out[F.w0] = inv(hw0);
    const dk = sigmoid(x[F.kappaBar]); // κ = softplus(κ̄)
    out[F.kappaBar] = inv(hk * dk * dk);
  }
  return out;
}
