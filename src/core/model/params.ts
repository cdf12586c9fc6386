import type { BinaryLayout, BinaryModel, NominalFlags, NominalLayout } from './types';
import { specsAt, type GroupSlots, type PriorOverride, type PriorSpecs } from './hprior';

/**
 * How the objective is posed.
 * - `paper`: exactly eq. 15, L = CE + ½Σθ². It has no minimum (a → λa, θ → θ/λ
 *   keeps CE and shrinks the prior), so it is only meaningful early-stopped, as
 *   the paper's Adam-2500 is.
 * - `default` (well-posed): the likelihood's scale and shift invariances are
 *   removed by constraints: θ is standardised over the calibration LLMs
 *   (θ = (r − mean r)/sd r), s_j = exp(s̄_j − mean s̄) has geometric mean 1, and
 *   δ is centred over LLMs as well as positions. Without the fallback gate
 *   these are exact invariances (a → a/λ with θ → λθ, s → λs with (a, c, δ) →
 *   (a, c, δ)/λ, δ_·k + t with c_·k − t) and cost no fit. With the gate they
 *   are not exact: b̃ (eq. 10) is a non-linear function of c linearised at
 *   θ = 0, so moving along them changes the cross-entropy slightly; the
 *   constraints then pick one point of a nearly flat valley (they are an
 *   identification choice, not a free lunch). Every parameter group then gets
 *   a prior N(μ_g, σ_g²) with σ_g = λ · r_g (`hprior.ts`): a fixed reference
 *   shape r times one prior strength λ, which is not learnt with the
 *   parameters (no type-II MAP or evidence loop) but chosen per data set and
 *   model by cross-validated held-out likelihood on the training cells
 *   (`fit/strength.ts`, docs/priors.md). The groups: option slopes a,
 *   intercepts c, log s, δ, ρ; for binary models slope, d, logit g, logit u
 *   (with their reference means). A user may fix any group's σ
 *   (`PriorOverride`). 1PL gets a shared free slope with a weak N(0, 30²).
 * - `score`: item and global parameters are held fixed (a saved bank); each
 *   LLM's θ ~ N(0, 1) and its own s, δ, ρ are estimated with log s ~ N(0, 1),
 *   δ ~ N(0, 2²), ρ ~ N(0, 5²), so that one LLM on a few items stays finite.
 */
export type Mode = 'paper' | 'default' | 'score';

export const PRIOR_SD = { logS: 1, delta: 2, rho: 5, logitG: 2, logitU: 2, item: 30 } as const;

/** Maps the optimiser's free vector to natural parameters and back. */
export interface Parameterisation {
  /** Length of the free vector. */
  size: number;
  /** Length of the natural vector the engines read. */
  natSize: number;
  toNatural(free: Float64Array, nat: Float64Array): void;
  /**
   * Adds the θ prior (½Σθ²) and the mode's penalty at `nat`, and pulls the
   * gradient back: `gNat` holds ∂CE/∂nat on entry (it is modified), `gFree` is
   * overwritten with ∂(CE + prior + penalty)/∂free.
   */
  pullback(
    free: Float64Array,
    nat: Float64Array,
    gNat: Float64Array,
    gFree: Float64Array | null,
  ): {
    prior: number;
    penalty: number;
  };
  /** The default mode's prior groups (empty in other modes). */
  groups: readonly GroupSlots[];
  /** The priors in force for those groups; the strength search sets them to each λ it tries. */
  priors: PriorSpecs;
  /**
   * Diagonal prior precision per natural slot in local coordinates (θ, log s,
   * δ, ρ, a, c, w0, log κ; binary θ, slope, d, logit g, logit u): what a
   * Laplace approximation adds to the curvature.
   */
  priorPrecision(): Float64Array;
}

/** θ from its free block: identity (paper) or standardised (default). */
export function thetaForward(
  free: Float64Array,
  off: number,
  J: number,
  mode: Mode,
  out: Float64Array,
  outOff: number,
) {
  if (mode !== 'default' || J < 2) {
    for (let j = 0; j < J; j++) out[outOff + j] = free[off + j];
    return;
  }
  const { m, sd } = meanSd(free, off, J);
  for (let j = 0; j < J; j++) out[outOff + j] = (free[off + j] - m) / sd;
}

/** Mean and (population) sd of x[off..off+n); an sd of 0 reads as 1. */
export function meanSd(x: Float64Array, off: number, n: number): { m: number; sd: number } {
  let m = 0;
  for (let j = 0; j < n; j++) m += x[off + j];
  m /= n;
  let v = 0;
  for (let j = 0; j < n; j++) v += (x[off + j] - m) ** 2;
  return { m, sd: Math.sqrt(v / n) || 1 };
}

/** Adds the prior's gradient to gθ and pulls it back through thetaForward. */
export function thetaBackward(
  free: Float64Array,
  off: number,
  J: number,
  mode: Mode,
  nat: Float64Array,
  natOff: number,
  gNat: Float64Array,
  gFree: Float64Array | null,
): number {
  let prior = 0;
  for (let j = 0; j < J; j++) {
    const t = nat[natOff + j];
    prior += 0.5 * t * t;
    gNat[natOff + j] += t;
  }
  if (!gFree) return prior;
  if (mode !== 'default' || J < 2) {
    for (let j = 0; j < J; j++) gFree[off + j] = gNat[natOff + j];
    return prior;
  }
  const { sd } = meanSd(free, off, J);
  let gm = 0;
  let gt = 0;
  for (let j = 0; j < J; j++) {
    gm += gNat[natOff + j];
    gt += gNat[natOff + j] * nat[natOff + j];
  }
  gm /= J;
  gt /= J;
  for (let j = 0; j < J; j++) gFree[off + j] = (gNat[natOff + j] - gm - nat[natOff + j] * gt) / sd;
  return prior;
}

/** The weak N(0, PRIOR_SD.item²) on natural item parameters nat[from..to); padding is 0. */
export function itemRidge(nat: Float64Array, g: Float64Array, from: number, to: number): number {
  const w = 1 / PRIOR_SD.item ** 2;
  let pen = 0;
  for (let q = from; q < to; q++) {
    pen += 0.5 * w * nat[q] * nat[q];
    g[q] += w * nat[q];
  }
  return pen;
}

/** Centre each of the n columns of an m × n row-major block at x[off..] over its m rows, in place. */
export function centreColumns(x: Float64Array, off: number, m: number, n: number) {
  for (let k = 0; k < n; k++) {
    let s = 0;
    for (let r = 0; r < m; r++) s += x[off + r * n + k];
    s /= m;
    for (let r = 0; r < m; r++) x[off + r * n + k] -= s;
  }
}

/** Centre x[off..off+n) into out (x − mean). */
export function centre(x: Float64Array, off: number, n: number, out: Float64Array, outOff: number) {
  let m = 0;
  for (let k = 0; k < n; k++) m += x[off + k];
  m /= n;
  for (let k = 0; k < n; k++) out[outOff + k] = x[off + k] - m;
}

/** Slots [off, off + n) as a group. */
export function span(
  group: GroupSlots['group'],
  off: number,
  n: number,
  t: GroupSlots['transform'] = 'id',
): GroupSlots {
  return { group, slots: Uint32Array.from({ length: n }, (_, q) => off + q), transform: t };
}

/** The fields both families share: sizes, prior groups, and their priors at σ = 1 (or the override). */
export function frame<F extends { size: number }>(
  free: F,
  natSize: number,
  groups: GroupSlots[],
  override: PriorOverride,
) {
  return { free, size: free.size, natSize, groups, priors: specsAt(groups, 1, override) };
}

/**
 * Diagonal prior precision of P's groups, plus θ's N(0, 1) at nat[thetaOff..+J) where θ is
 * not standardised (every mode but `default`).
 */
export function precisionOf(
  P: Pick<Parameterisation, 'natSize' | 'groups' | 'priors'>,
  thetaOff: number,
  J: number,
  mode: Mode,
): Float64Array {
  const out = new Float64Array(P.natSize);
  if (mode !== 'default') out.fill(1, thetaOff, thetaOff + J);
  for (const G of P.groups) {
    const sp = P.priors[G.group];
    if (sp) for (const q of G.slots) out[q] = 1 / (sp.sd * sp.sd);
  }
  return out;
}

/** A nominal model's parameterisation, which knows its free vector's layout. */
export type NominalParameterisation = Parameterisation & { free: NominalFreeLayout };
/** A binary model's parameterisation, which knows its free vector's layout. */
export type BinaryParameterisation = Parameterisation & { free: BinaryFreeLayout };

/** Free-vector offsets of the nominal family. Absent blocks have length 0. */
export interface NominalFreeLayout {
  theta: number;
  sBar: number;
  delta: number;
  rho: number;
  a: number;
  c: number;
  w0: number;
  kappaBar: number;
  size: number;
}

export function nominalFreeLayout(L: NominalLayout, f: NominalFlags): NominalFreeLayout {
  const { J, I, Kmax } = L;
  const theta = 0;
  const sBar = theta + J;
  const delta = sBar + (f.sharpness ? J : 0);
  const rho = delta + (f.position ? J * Kmax : 0);
  const a = rho + (f.fallback ? J * Kmax : 0);
  const c = a + I * Kmax;
  const w0 = c + I * Kmax;
  const kappaBar = w0 + (f.fallback ? 1 : 0);
  return { theta, sBar, delta, rho, a, c, w0, kappaBar, size: kappaBar + (f.fallback ? 1 : 0) };
}

/** Free-vector offsets of the binary family. */
export interface BinaryFreeLayout {
  theta: number;
  a: number;
  nA: number;
  d: number;
  gBar: number;
  uBar: number;
  size: number;
}

export function binaryFreeLayout(
  L: BinaryLayout,
  model: BinaryModel,
  mode: Mode,
): BinaryFreeLayout {
  const { J, I } = L;
  const nA = model === '1pl' ? (mode === 'paper' ? 0 : 1) : I;
  const a = J;
  const d = a + nA;
  const gBar = d + I;
  const uBar = gBar + (model === '3pl' || model === '4pl' ? I : 0);
  const size = uBar + (model === '4pl' ? I : 0);
  return { theta: 0, a, nA, d, gBar, uBar, size };
}
