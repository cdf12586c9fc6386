/**
 * What the optimisers (Adam, L-BFGS) share: the objective's signature, their
 * options, steps and results, the gradient norms of the convergence test, and
 * the cancel check each fit runs between passes.
 */

/**
 * The objective and its gradient at x. `coarse`: the optimiser accepts float32
 * round-off in this evaluation (Engine.evaluate); an objective may ignore it.
 */
export type Objective = (x: Float64Array, grad: Float64Array, coarse?: boolean) => Promise<number>;

export interface OptimStep {
  step: number;
  passes: number;
  value: number;
  /** The current iterate: the optimiser's live vector, so copy it to keep it. */
  x?: Float64Array;
  /** Which optimiser took the step (shown in a fit's progress line). */
  optimiser?: 'Adam' | 'L-BFGS';
}

export interface OptimOptions {
  maxSteps: number;
  /**
   * Mixed precision: steps may evaluate coarsely (float32 where the engine has
   * it). Adam uses only gradients, so all its steps may; L-BFGS does until its
   * line search can no longer judge progress (below). Every returned value and
   * the convergence test are float64.
   */
  coarse?: boolean;
  signal?: AbortSignal;
  onStep?: (s: OptimStep) => void;
}

/**
 * Why an optimiser stopped:
 * - `gradient`: the scaled gradient norm is below `gtol` and the objective has
 *   stopped changing (both tests; converged);
 * - `max-steps`: the step cap was reached first (not converged; paper Adam
 *   always stops here, as eq. 15 is fitted for a fixed number of steps);
 * - `no-progress`: the line search could not decrease the objective while the
 *   gradient was still above `gtol` (not converged: a round-off floor or a kink);
 * - `stalled`: the objective changed by less than `tol` (relative) on
 *   `stallSteps` consecutive steps while the gradient test still failed (not
 *   converged: the steps creep along a kink, as eq. 10's b̃ makes one where an
 *   item's key slope crosses zero; more steps would not converge).
 */
export type StopReason = 'gradient' | 'max-steps' | 'no-progress' | 'stalled';

/**
 * Consecutive calm steps (|Δf| / max(|f|, 1) < tol) after which a fit whose
 * gradient test still fails is stopped as `stalled`. On a smooth objective the
 * gradient test follows: the longest calm run before it passed was 115–175
 * steps (default fits of the demo and of 20 × 200 simulations, gate open and
 * shut, their λ searches included). A kink holds the gradient up for ever:
 * continuing a paper-mode fit (eq. 10's gate) of 6 × 30 cells crept 1,000,000
 * steps (212.05 → 211.13) and never passed; with this rule it stops at 7,590
 * steps (211.14).
 */
export const STALL_STEPS = 1000;

export interface OptimResult {
  x: Float64Array;
  value: number;
  steps: number;
  passes: number;
  converged: boolean;
  reason: StopReason;
  /** max_q √P_q |g_q| at x (P the preconditioner, 1 without one): the convergence test's norm. */
  gradNorm: number;
  /** max_q |g_q| at x, unscaled. */
  gradMax: number;
}

/** max_q √P_q |g_q| and max_q |g_q|; NaN if any entry is not finite. */
export function gradNorms(g: Float64Array, P?: Float64Array): { scaled: number; raw: number } {
  let scaled = 0;
  let raw = 0;
  for (let q = 0; q < g.length; q++) {
    const v = Math.abs(g[q]);
    if (!Number.isFinite(v)) return { scaled: NaN, raw: NaN };
    if (v > raw) raw = v;
    const w = P ? v * Math.sqrt(P[q]) : v;
    if (w > scaled) scaled = w;
  }
  return { scaled, raw };
}

/** Whether every entry of g is finite. */
export function allFinite(g: Float64Array): boolean {
  for (let q = 0; q < g.length; q++) if (!Number.isFinite(g[q])) return false;
  return true;
}

/** An Error named AbortError, like fetch's, so callers can tell cancel from failure. */
export function abortError(): Error {
  const e = new Error('The fit was cancelled.');
  e.name = 'AbortError';
  return e;
}

/**
 * A fit's cancel check: yields to the event loop at most every ~25 ms of work
 * (so a worker can receive a cancel message mid-fit) and throws if `signal` is
 * aborted. One per optimiser run, so fits running together keep their own clocks.
 */
export function yielder(signal?: AbortSignal): () => Promise<void> {
  let lastYield = 0;
  return async () => {
    const now = Date.now();
    if (now - lastYield > 25) {
      lastYield = now;
      await new Promise((r) => setTimeout(r, 0));
    }
    if (signal?.aborted) throw abortError();
  };
}
