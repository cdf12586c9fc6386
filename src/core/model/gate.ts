/**
 * The fallback gate's two forms (issue 27). Both are G_ji = σ(w0 − κ d_ji) with
 * a "distance" d_ji that grows as item i gets hard for LLM j:
 *
 * - 'eq10' (the paper, eq. 7 and 10): d = θ_j − b̃_i, b̃_i the one-Newton-step
 *   root of the item's margin f_i (btilde.ts). Its ratio divides by a slope that
 *   can cross zero, so the fit may not converge where the gate is open.
 * - 'margin' (the default mode's): d = f_i(θ_j), the item's own correct-versus-
 *   incorrect log-odds margin at the LLM's ability (eq. 8, raw a and c: no s_j,
 *   no δ_j), f_i(θ) = a_key θ + c_key − log Σ_{k≠key} exp(a_k θ + c_k).
 *   Eq. 10 is its linearisation at θ = 0 (f_i(θ) ≈ f_i'(0)(θ − b̃_i)), so the
 *   meaning is kept, without the division.
 *
 * Paper mode always uses 'eq10'; the default mode uses 'margin' unless a fit's
 * settings ask for 'eq10'.
 */
import type { Mode } from './params';
import type { GateForm } from './types';

export type { GateForm } from './types';

/**
 * A fitted gate whose largest G_ji over the observed cells is below this is
 * "shut": the fallback moves no cell's logits by more than 0.1% of their way
 * to ρ_j, and the fit equals the no-fallback model.
 */
export const GATE_SHUT = 1e-3;

/** The words the app and the CLI show for a fit's gate (null for models without it). */
export function gateWords(fit: {
  gate?: GateForm;
  gateMax?: number;
  model: string;
}): string | null {
  if (fit.gateMax === undefined) return null;
  const form =
    gateOf(fit) === 'margin'
      ? "the margin gate, σ[w0 − κ·f_i(θ_j)] with f_i the item's correct-versus-incorrect log-odds margin (eq. 8)"
      : "the paper's gate (eq. 10), σ[w0 − κ(θ_j − b̃_i)]";
  const state =
    fit.gateMax < GATE_SHUT
      ? 'The fallback gate is shut on this data; the fit equals the no-fallback model.'
      : `The fallback gate is open: G reaches ${fit.gateMax.toFixed(3)}.`;
  return `Fallback gate: ${form}. ${state}`;
}
export const GATE_FORMS: readonly GateForm[] = ['margin', 'eq10'];

/**
 * The default mode's prior on the margin gate's slope, κ ~ N(0, 3²) (κ ≥ 0).
 * Without it the margin gate can run to a step: on the demo NAEP data a fit
 * went to w0 −3,187, κ 841 (G = 1 exactly where f_i(θ_j) < −3.79, 0 elsewhere)
 * and never converged. At sd 3 a true κ of 1 (simulateNominal's open gate)
 * costs 0.06 in the objective. Eq. 10's gate keeps no such prior (as before).
 */
export const MARGIN_KAPPA_SD = 3;

/** The gate form a fit runs with: paper mode's is eq. 10; the default's is the margin unless asked. */
export function resolveGate(mode: Mode, asked: GateForm | undefined): GateForm {
  if (mode === 'paper') {
    if (asked === 'margin')
      throw new Error(
        "Paper mode uses the paper's gate (eq. 10) exactly; gate 'margin' needs the default mode.",
      );
    return 'eq10';
  }
  return asked ?? 'margin';
}

/**
 * The gate form recorded in a fit.json (or a bank made from one): its `gate`
 * field, or, in a file written before the field existed, 'eq10' (the only form
 * there was).
 */
export function gateOf(fit: { gate?: GateForm }): GateForm {
  return fit.gate ?? 'eq10';
}

/**
 * f_i(θ) (eq. 8) of the item whose raw slopes and intercepts are a[off..off+K),
 * c[off..off+K), key g. Writes the distractor weights at θ,
 * w_k = softmax_{k≠g}(a_k θ + c_k) (w_g = 0), into w[0..K), so that
 * f'(θ) = a_g − Σ w_k a_k (`marginSlope`), ∂f/∂a_g = θ, ∂f/∂c_g = 1,
 * ∂f/∂a_k = −w_k θ and ∂f/∂c_k = −w_k for k ≠ g.
 */
export function margin(
  a: ArrayLike<number>,
  c: ArrayLike<number>,
  off: number,
  K: number,
  g: number,
  theta: number,
  w: Float64Array,
): number {
  let m = -Infinity;
  for (let k = 0; k < K; k++) {
    w[k] = a[off + k] * theta + c[off + k];
    if (k !== g && w[k] > m) m = w[k];
  }
  const own = w[g];
  let z = 0;
  for (let k = 0; k < K; k++) {
    w[k] = k === g ? 0 : Math.exp(w[k] - m);
    z += w[k];
  }
  for (let k = 0; k < K; k++) w[k] /= z;
  return own - m - Math.log(z);
}

/** f'(θ) = a_g − Σ_{k≠g} w_k a_k, with w from `margin` at the same θ. */
export function marginSlope(
  a: ArrayLike<number>,
  off: number,
  K: number,
  g: number,
  w: Float64Array,
): number {
  let s = a[off + g];
  for (let k = 0; k < K; k++) if (k !== g) s -= w[k] * a[off + k];
  return s;
}

/**
 * Adds gf · ∂f/∂(a, c) into ga[gaOff + k], gc[gcOff + k] for the item of
 * `margin` (whose weights `w` it takes) at θ.
 */
export function addMarginGradient(
  gf: number,
  theta: number,
  K: number,
  g: number,
  w: Float64Array,
  ga: Float64Array,
  gaOff: number,
  gc: Float64Array,
  gcOff: number,
): void {
  for (let k = 0; k < K; k++) {
    const d = k === g ? 1 : -w[k];
    ga[gaOff + k] += gf * d * theta;
    gc[gcOff + k] += gf * d;
  }
}

/** A gate's distance d (G = σ(w0 − κ d)) and its θ-derivative. */
export interface GateDistance {
  d: number;
  dTheta: number;
}

/** One item's slopes and intercepts: a[off + k], c[off + k] for its K options, key g. */
export interface ItemRow {
  a: ArrayLike<number>;
  c: ArrayLike<number>;
  off: number;
  K: number;
  g: number;
}

/**
 * The gate's distance d_ji of either form for one LLM at θ on one item: θ − b̃
 * (eq. 10, dd/dθ = 1) or f_i(θ) (margin, dd/dθ = f_i'(θ)). `bt` is b̃_i (used by
 * eq. 10 only); `w` is scratch of length ≥ K.
 */
export function gateDistance(
  form: GateForm,
  theta: number,
  bt: number,
  { a, c, off, K, g }: ItemRow,
  w: Float64Array,
): GateDistance {
  if (form === 'eq10') return { d: theta - bt, dTheta: 1 };
  const d = margin(a, c, off, K, g, theta, w);
  return { d, dTheta: marginSlope(a, off, K, g, w) };
}
