/**
 * Model variants and the natural-parameter layout shared by every fitting engine.
 *
 * Engines compute only the cross-entropy term of the objective and its gradient
 * with respect to the *natural* (constrained) parameters below. The map from the
 * optimiser's free parameters to these (centring, softplus, standardising θ) and
 * the prior/penalty terms live in `params.ts`, in float64, so that every engine
 * shares them exactly.
 */

/** Option-level models (the nominal family). */
export type NominalModel =
  'llmnrm' | 'no-sharpness' | 'no-position' | 'no-fallback' | 'nrm-soft' | 'nrm-hard';
/** Binary models on correctness. */
export type BinaryModel = '1pl' | '2pl' | '3pl' | '4pl';
export type ModelType = NominalModel | BinaryModel;

export const NOMINAL_MODELS: readonly NominalModel[] = [
  'llmnrm',
  'no-sharpness',
  'no-position',
  'no-fallback',
  'nrm-soft',
  'nrm-hard',
];
export const BINARY_MODELS: readonly BinaryModel[] = ['1pl', '2pl', '3pl', '4pl'];
export const MODEL_TYPES: readonly ModelType[] = [...NOMINAL_MODELS, ...BINARY_MODELS];

export function isBinary(m: ModelType): m is BinaryModel {
  return (BINARY_MODELS as readonly string[]).includes(m);
}

/** What a nominal model is scored on: full option distribution, correctness only, or the wrong option only. */
export type Channel = 'option' | 'binary' | 'wrong';

/** The fallback gate's form: the paper's θ − b̃ ('eq10') or the item's margin (gate.ts). */
export type GateForm = 'margin' | 'eq10';

/** Which LLM-specific terms a nominal model carries. */
export interface NominalFlags {
  sharpness: boolean;
  position: boolean;
  fallback: boolean;
  /** Targets are one-hot argmax of the observed distribution instead of the distribution. */
  hardTargets: boolean;
  /** The fallback gate's form (gate.ts): the item's margin f_i(θ) or eq. 10's θ − b̃_i. */
  gate: GateForm;
}

/** The flags of model `m` with the fallback gate in form `gate` (ignored without the fallback). */
export function nominalFlags(m: NominalModel, gate: GateForm): NominalFlags {
  return { ...nominalTerms(m), gate };
}

/** Which LLM-specific terms model `m` carries (no gate form: for questions that do not evaluate it). */
export function nominalTerms(m: NominalModel): Omit<NominalFlags, 'gate'> {
  switch (m) {
    case 'llmnrm':
      return { sharpness: true, position: true, fallback: true, hardTargets: false };
    case 'no-sharpness':
      return { sharpness: false, position: true, fallback: true, hardTargets: false };
    case 'no-position':
      return { sharpness: true, position: false, fallback: true, hardTargets: false };
    case 'no-fallback':
      return { sharpness: true, position: true, fallback: false, hardTargets: false };
    case 'nrm-soft':
      return { sharpness: false, position: false, fallback: false, hardTargets: false };
    case 'nrm-hard':
      return { sharpness: false, position: false, fallback: false, hardTargets: true };
  }
}

/**
 * Natural parameters of the nominal family, as one Float64Array with this layout
 * (offsets from `nominalLayout`):
 *   theta[J], s[J], delta[J*Kmax], rho[J*Kmax], a[I*Kmax], c[I*Kmax], w0, kappa
 * a and c are already centred over each item's valid options; delta and rho over Kmax.
 * Padded option slots (k >= K_i) of a and c are 0 and ignored.
 */
export interface NominalLayout {
  J: number;
  I: number;
  Kmax: number;
  theta: number;
  s: number;
  delta: number;
  rho: number;
  a: number;
  c: number;
  w0: number;
  kappa: number;
  size: number;
}

export function nominalLayout(J: number, I: number, Kmax: number): NominalLayout {
  const theta = 0;
  const s = theta + J;
  const delta = s + J;
  const rho = delta + J * Kmax;
  const a = rho + J * Kmax;
  const c = a + I * Kmax;
  const w0 = c + I * Kmax;
  const kappa = w0 + 1;
  return { J, I, Kmax, theta, s, delta, rho, a, c, w0, kappa, size: kappa + 1 };
}

/**
 * Natural parameters of the binary family: theta[J], a[I], d[I], g[I], u[I].
 * P(correct) = g + (u - g) * sigmoid(a * theta + d). 1PL has one shared a.
 */
export interface BinaryLayout {
  J: number;
  I: number;
  theta: number;
  a: number;
  d: number;
  g: number;
  u: number;
  size: number;
}

export function binaryLayout(J: number, I: number): BinaryLayout {
  const theta = 0;
  const a = J;
  const d = a + I;
  const g = d + I;
  const u = g + I;
  return { J, I, theta, a, d, g, u, size: u + I };
}

/**
 * Smoothing width of the guard on the denominator of b̃ (eq. 10). See `btilde`.
 */
export const BTILDE_EPS = 0.05;
