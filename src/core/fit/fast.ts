import { adam, lbfgs, type LbfgsOptions, type OptimResult, type OptimStep } from './optim';
import { GTOL, PAPER_ADAM, type FitSettings } from './types';

/**
 * Adam steps before L-BFGS in the fast optimiser, from a cold start. 100
 * rather than 300: L-BFGS with FAST_MEMORY pairs reaches the same basin from
 * there, in fewer passes in all (bench/passes.ts).
 */
export const FAST_WARMUP = 100;
/**
 * L-BFGS's memory (curvature pairs) in the fast optimiser. The LLM-NRM's
 * curvature spans θ, items and the global gate; 10 pairs left the last
 * digits to hundreds of small steps, 30 pairs cut the passes of a warm-started
 * fit 2–4× at a cost per step that is small beside a pass.
 */
export const FAST_MEMORY = 30;

/** Whether settings ask for mixed precision (FitSettings.precision; the default). */
export function mixedPrecision(s: Pick<FitSettings, 'precision'>): boolean {
  return (s.precision ?? 'mixed') === 'mixed';
}

export interface FastOptions {
  settings: Pick<FitSettings, 'steps' | 'lr' | 'tol' | 'gtol' | 'memory'>;
  /** Adam warm-up steps (0 on a warm start). */
  warm: number;
  /** L-BFGS's diagonal preconditioner, or how to compute it at L-BFGS's start point. */
  precond: Float64Array | ((x: Float64Array) => Float64Array);
  /** Looser tolerances for an inner fit whose only use is a held-out score. */
  loose?: boolean;
  /** Mixed precision (OptimOptions.coarse): from settings.precision, default on. */
  coarse?: boolean;
  signal?: AbortSignal;
  onStep?: (s: OptimStep) => void;
  curvature?: LbfgsOptions['curvature'];
  /**
   * Awaited once, as L-BFGS is about to start (after the warm-up). A test hook
   * (the worker's 'stall-lbfgs' fault) holds a fit here until it is cancelled.
   */
  beforeLbfgs?: () => Promise<void>;
}

/**
 * The fast optimiser: a short Adam warm-up, then preconditioned L-BFGS. The
 * LLM-NRM surface is not convex: from the documented start L-BFGS can switch
 * the fallback gate off (w0 → −∞) before ρ has learnt anything and stall
 * there; Adam's per-coordinate bounded steps reach a better basin first.
 * Steps and passes count both phases; the step cap covers both.
 */
export async function fastFit(
  f: (x: Float64Array, g: Float64Array, coarse?: boolean) => Promise<number>,
  x0: Float64Array,
  o: FastOptions,
): Promise<OptimResult> {
  const s = o.settings;
  let x = x0;
  let steps = 0;
  let passes = 0;
  const warm = Math.min(o.warm, s.steps);
  if (warm > 0) {
    const w = await adam(f, x, {
      maxSteps: warm,
      lr: s.lr,
      beta1: PAPER_ADAM.beta1,
      beta2: PAPER_ADAM.beta2,
      eps: PAPER_ADAM.eps,
      coarse: o.coarse,
      signal: o.signal,
      onStep: o.onStep,
    });
    x = w.x;
    steps = warm;
    passes = w.passes;
  }
  await o.beforeLbfgs?.();
  const l = await lbfgs(f, x, {
    maxSteps: Math.max(1, s.steps - steps),
    tol: o.loose ? Math.max(s.tol, 1e-7) : s.tol,
    gtol: o.loose ? Math.max(s.gtol ?? GTOL, 1e-3) : (s.gtol ?? GTOL),
    signal: o.signal,
    precond: typeof o.precond === 'function' ? o.precond(x) : o.precond,
    memory: s.memory ?? FAST_MEMORY,
    coarse: o.coarse,
    curvature: o.curvature,
    onStep:
      o.onStep && ((st) => o.onStep!({ ...st, step: st.step + steps, passes: st.passes + passes })),
  });
  return { ...l, steps: l.steps + steps, passes: l.passes + passes };
}
