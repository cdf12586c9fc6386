/**
 * Per-cell Gauss–Newton pieces for the Laplace uncertainty (laplace.ts):
 * the Jacobian of a cell's outputs with respect to the *reduced local*
 * parameters, the output-space weight W and the residual e = ∂CE/∂output.
 *
 * Nominal family: outputs are the K logits of eq. 13,
 *   z_k = (1 − G)·s·(a_k θ + c_k + δ_k) + G·ρ_k,  G = σ(w0 − κ(θ − b̃_i)),
 * W = m (diag p − p pᵀ) with p = softmax(z), m the cell's target mass, and
 * e = m p − t. Binary family: one output P = g + (u − g) σ(a θ + d), W = 1/(P(1−P)),
 * e = ∂CE/∂P. The GN curvature of a cell is Jᵀ W J and its score Jᵀ e.
 *
 * Reduced local coordinates (sum-to-zero blocks become orthonormal Helmert
 * contrasts, so the per-block constraints need no further treatment):
 * - per LLM: θ, log s (sharpness), δ̃ (Kmax − 1, position), ρ̃ (Kmax − 1, fallback);
 *   binary: θ only;
 * - globals: w0, log κ (fallback); binary 1PL outside paper mode: the shared slope;
 * - per item: ã (K − 1), c̃ (K − 1); binary: slope (not 1PL), d, logit g (3/4PL), logit u (4PL).
 */
import type { Problem } from '../../engines/types';
import { btilde } from '../../model/btilde';
import { margin, marginSlope } from '../../model/gate';
import type { Mode } from '../../model/params';
import type { BinaryModel, NominalFlags } from '../../model/types';

/** Sizes and offsets of the reduced coordinates. */
export interface Reduced {
  kind: 'nominal' | 'binary';
  J: number;
  I: number;
  Kmax: number;
  /** Width of one LLM's block and offsets in it (−1: absent). */
  pj: number;
  oLogS: number;
  oDelta: number;
  oRho: number;
  /** Number of globals; offsets among them (−1: absent). */
  ng: number;
  gW0: number;
  gLogK: number;
  gSlope: number;
  /** Person side width J·pj + ng (globals last). */
  P: number;
  /** Item block width per item. */
  q: Int32Array;
  qmax: number;
  flags?: NominalFlags;
  model?: BinaryModel;
}

export function reducedLayout(problem: Problem, mode: Mode): Reduced {
  const { J, I } = problem.layout;
  const nOpt = problem.cells.nOptions;
  if (problem.kind === 'nominal') {
    const f = problem.flags;
    const Kmax = problem.layout.Kmax;
    let pj = 1;
    const oLogS = f.sharpness ? pj++ : -1;
    const oDelta = f.position ? pj : -1;
    if (f.position) pj += Kmax - 1;
    const oRho = f.fallback ? pj : -1;
    if (f.fallback) pj += Kmax - 1;
    const ng = f.fallback ? 2 : 0;
    const q = Int32Array.from({ length: I }, (_, i) => 2 * (nOpt[i] - 1));
    return {
      kind: 'nominal',
      J,
      I,
      Kmax,
      pj,
      oLogS,
      oDelta,
      oRho,
      ng,
      gW0: f.fallback ? 0 : -1,
      gLogK: f.fallback ? 1 : -1,
      gSlope: -1,
      P: J * pj + ng,
      q,
      qmax: Math.max(0, ...q),
      flags: f,
    };
  }
  const m = problem.model;
  const shared = m === '1pl';
  const ng = shared && mode !== 'paper' ? 1 : 0;
  const qi = (shared ? 0 : 1) + 1 + (m === '3pl' || m === '4pl' ? 1 : 0) + (m === '4pl' ? 1 : 0);
  return {
    kind: 'binary',
    J,
    I,
    Kmax: 1,
    pj: 1,
    oLogS: -1,
    oDelta: -1,
    oRho: -1,
    ng,
    gW0: -1,
    gLogK: -1,
    gSlope: ng ? 0 : -1,
    P: J + ng,
    q: new Int32Array(I).fill(qi),
    qmax: qi,
    model: m,
  };
}

/** Orthonormal Helmert contrasts: K × (K − 1) row-major, columns sum to 0. */
export function helmert(K: number): Float64Array {
  const H = new Float64Array(K * (K - 1));
  for (let m = 1; m < K; m++) {
    const f = 1 / Math.sqrt(m * (m + 1));
    for (let k = 0; k < m; k++) H[k * (K - 1) + (m - 1)] = f;
    H[m * (K - 1) + (m - 1)] = -m * f;
  }
  return H;
}

/** Scratch and output of one cell: K outputs, Jacobians row-major (K × width). */
export interface CellOut {
  K: number;
  W: Float64Array; // Kmax × Kmax (only K × K used, stride K)
  e: Float64Array;
  Jp: Float64Array; // K × pj
  Jg: Float64Array; // K × ng
  Jq: Float64Array; // K × q_i
}

export function cellScratch(R: Reduced): CellOut {
  const K = Math.max(1, R.Kmax);
  return {
    K,
    W: new Float64Array(K * K),
    e: new Float64Array(K),
    Jp: new Float64Array(K * R.pj),
    Jg: new Float64Array(K * Math.max(1, R.ng)),
    Jq: new Float64Array(K * Math.max(1, R.qmax)),
  };
}

/** Per-item quantities the nominal cells share: b̃ and its gradient in contrasts. */
export interface ItemPre {
  bt: number;
  /** ∂b̃/∂ã_m and ∂b̃/∂c̃_m (K − 1 each). */
  gA: Float64Array;
  gC: Float64Array;
  /** ∂b̃/∂a, ∂b̃/∂c on the K centred values (for the delta method). */
  gaNat: Float64Array;
  gcNat: Float64Array;
}

export function itemPre(
  problem: Extract<Problem, { kind: 'nominal' }>,
  nat: Float64Array,
  i: number,
  H: Float64Array,
): ItemPre {
  const L = problem.layout;
  const K = problem.cells.nOptions[i];
  const ga = new Float64Array(K);
  const gc = new Float64Array(K);
  const w = new Float64Array(L.Kmax);
  const a = nat.subarray(L.a);
  const c = nat.subarray(L.c);
  const off = i * L.Kmax;
  const bt = btilde(a, c, off, K, problem.cells.key[i], w, { gb: 1, ga, gc, gaOff: 0, gcOff: 0 });
  const gA = new Float64Array(K - 1);
  const gC = new Float64Array(K - 1);
  for (let m = 0; m < K - 1; m++)
    for (let l = 0; l < K; l++) {
      gA[m] += ga[l] * H[l * (K - 1) + m];
      gC[m] += gc[l] * H[l * (K - 1) + m];
    }
  return { bt, gA, gC, gaNat: ga, gcNat: gc };
}

/**
 * Fills `o` for nominal cell q. `Hmax` = helmert(Kmax) (δ, ρ contrasts),
 * `H` = helmert(K_i) (item contrasts), `pre` = itemPre of the cell's item.
 */
export function nominalCell(
  problem: Extract<Problem, { kind: 'nominal' }>,
  R: Reduced,
  nat: Float64Array,
  q: number,
  Hmax: Float64Array,
  H: Float64Array,
  pre: ItemPre,
  o: CellOut,
): void {
  const { layout: L, flags: f, cells } = problem;
  const Kmax = L.Kmax;
  const j = cells.cellJ[q];
  const i = cells.cellI[q];
  const K = cells.nOptions[i];
  o.K = K;
  const th = nat[L.theta + j];
  const s = f.sharpness ? nat[L.s + j] : 1;
  const kap = f.fallback ? nat[L.kappa] : 0;
  const pj = R.pj;
  const qi = R.q[i];
  const km = K - 1;
  const dist = f.fallback ? gateDistanceIn(problem, nat, j, i, H, pre) : null;
  const G = dist ? 1 / (1 + Math.exp(-(nat[L.w0] - kap * dist.d))) : 0;
  const Gp = G * (1 - G);
  o.Jp.fill(0, 0, K * pj);
  o.Jg.fill(0, 0, K * Math.max(1, R.ng));
  o.Jq.fill(0, 0, K * qi);
  let zmax = -Infinity;
  const z = o.e; // logits first, then residuals
  for (let k = 0; k < K; k++) {
    const a = nat[L.a + i * Kmax + k];
    const v = a * th + nat[L.c + i * Kmax + k] + (f.position ? nat[L.delta + j * Kmax + k] : 0);
    const rho = f.fallback ? nat[L.rho + j * Kmax + k] : 0;
    const r = rho - s * v; // ∂z_k/∂G
    const u = (1 - G) * s;
    z[k] = u * v + G * rho;
    if (z[k] > zmax) zmax = z[k];
    const row = k * pj;
    // ∂G/∂x = −κ G (1 − G) ∂d/∂x for x = θ, the item's contrasts; −κ G (1 − G) d for log κ.
    const gd = dist ? -r * Gp * kap : 0;
    o.Jp[row] = u * a + (dist ? gd * dist.dTheta : 0);
    if (R.oLogS >= 0) o.Jp[row + R.oLogS] = u * v;
    if (R.oDelta >= 0)
      for (let m = 0; m < Kmax - 1; m++) o.Jp[row + R.oDelta + m] = u * Hmax[k * (Kmax - 1) + m];
    if (R.oRho >= 0)
      for (let m = 0; m < Kmax - 1; m++) o.Jp[row + R.oRho + m] = G * Hmax[k * (Kmax - 1) + m];
    if (f.fallback) {
      o.Jg[k * R.ng + R.gW0] = r * Gp;
      o.Jg[k * R.ng + R.gLogK] = gd * dist!.d;
    }
    const rq = k * qi;
    for (let m = 0; m < km; m++) {
      const h = H[k * km + m];
      o.Jq[rq + m] = u * th * h + (dist ? gd * dist.dA[m] : 0);
      o.Jq[rq + km + m] = u * h + (dist ? gd * dist.dC[m] : 0);
    }
  }
  let sum = 0;
  const p = new Float64Array(K);
  for (let k = 0; k < K; k++) sum += p[k] = Math.exp(z[k] - zmax);
  let mass = 0;
  for (let k = 0; k < K; k++) {
    p[k] /= sum;
    mass += cells.target[q * Kmax + k];
  }
  for (let k = 0; k < K; k++) {
    o.e[k] = mass * p[k] - cells.target[q * Kmax + k];
    for (let l = 0; l < K; l++) o.W[k * K + l] = mass * ((k === l ? p[k] : 0) - p[k] * p[l]);
  }
}

/**
 * The gate's distance d of cell (j, i) in the problem's form (model/gate.ts),
 * and its derivatives in θ_j and in item i's K − 1 contrasts of a and of c:
 * eq. 10's d = θ − b̃ has −∂b̃ (from `pre`); the margin's d = f_i(θ) has
 * ∂f/∂a_l = e_l θ, ∂f/∂c_l = e_l (e_key = 1, e_l = −w_l otherwise).
 */
function gateDistanceIn(
  problem: Extract<Problem, { kind: 'nominal' }>,
  nat: Float64Array,
  j: number,
  i: number,
  H: Float64Array,
  pre: ItemPre,
): { d: number; dTheta: number; dA: Float64Array; dC: Float64Array } {
  const { layout: L, cells } = problem;
  const K = cells.nOptions[i];
  const km = K - 1;
  const th = nat[L.theta + j];
  if (problem.flags.gate === 'eq10')
    return { d: th - pre.bt, dTheta: 1, dA: pre.gA.map((v) => -v), dC: pre.gC.map((v) => -v) };
  const g = cells.key[i];
  const w = new Float64Array(K);
  const a = nat.subarray(L.a);
  const d = margin(a, nat.subarray(L.c), i * L.Kmax, K, g, th, w);
  const dTheta = marginSlope(a, i * L.Kmax, K, g, w);
  const dA = new Float64Array(km);
  const dC = new Float64Array(km);
  for (let l = 0; l < K; l++) {
    const e = l === g ? 1 : -w[l];
    for (let m = 0; m < km; m++) {
      dC[m] += e * H[l * km + m];
      dA[m] += e * th * H[l * km + m];
    }
  }
  return { d, dTheta, dA, dC };
}

/** Fills `o` for binary cell q (one output, P). */
export function binaryCell(
  problem: Extract<Problem, { kind: 'binary' }>,
  R: Reduced,
  nat: Float64Array,
  q: number,
  o: CellOut,
): void {
  const { layout: L, model, cells } = problem;
  const j = cells.cellJ[q];
  const i = cells.cellI[q];
  const shared = model === '1pl';
  const useG = model === '3pl' || model === '4pl';
  const useU = model === '4pl';
  const th = nat[L.theta + j];
  const a = nat[L.a + (shared ? 0 : i)];
  const x = a * th + nat[L.d + i];
  const sg = 1 / (1 + Math.exp(-x));
  const g = useG ? nat[L.g + i] : 0;
  const u = useU ? nat[L.u + i] : 1;
  const P = Math.min(Math.max(g + (u - g) * sg, 1e-12), 1 - 1e-12);
  const dx = (u - g) * sg * (1 - sg);
  o.K = 1;
  o.Jp[0] = dx * a;
  let c = 0;
  if (R.gSlope >= 0) o.Jg[R.gSlope] = dx * th;
  if (!shared) o.Jq[c++] = dx * th;
  o.Jq[c++] = dx;
  if (useG) o.Jq[c++] = (1 - sg) * g * (1 - g);
  if (useU) o.Jq[c] = sg * u * (1 - u);
  const y = cells.correct[q];
  o.W[0] = 1 / (P * (1 - P));
  o.e[0] = -y / P + (1 - y) / (1 - P);
}
