/**
 * Optimisers over a flat float64 vector. The objective is async because some
 * engines read results back from a GPU; both optimisers yield to the event loop
 * now and then so a worker can receive a cancel message mid-fit.
 */

import { applyBlocks, quadBlocks, type BlockInverse } from './blocks';

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
 *   gradient was still above `gtol` (not converged: a round-off floor or a kink).
 */
export type StopReason = 'gradient' | 'max-steps' | 'no-progress';

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

function allFinite(g: Float64Array): boolean {
  for (let q = 0; q < g.length; q++) if (!Number.isFinite(g[q])) return false;
  return true;
}

/** An Error named AbortError, like fetch's, so callers can tell cancel from failure. */
export function abortError(): Error {
  const e = new Error('The fit was cancelled.');
  e.name = 'AbortError';
  return e;
}

let lastYield = 0;
/** Yield to the event loop at most every ~25 ms of work; throw if aborted. */
export async function checkpoint(signal?: AbortSignal): Promise<void> {
  const now = Date.now();
  if (now - lastYield > 25) {
    lastYield = now;
    await new Promise((r) => setTimeout(r, 0));
  }
  if (signal?.aborted) throw abortError();
}

export interface AdamOptions extends OptimOptions {
  lr: number;
  beta1: number;
  beta2: number;
  eps: number;
}

/** Full-batch Adam with bias correction (Kingma & Ba), as the paper fits. */
export async function adam(f: Objective, x0: Float64Array, o: AdamOptions): Promise<OptimResult> {
  const x = Float64Array.from(x0);
  const g = new Float64Array(x.length);
  const m = new Float64Array(x.length);
  const v = new Float64Array(x.length);
  for (let t = 1; t <= o.maxSteps; t++) {
    const value = await f(x, g, o.coarse);
    if (!Number.isFinite(value) || !allFinite(g))
      throw new Error(
        `Adam: the objective or its gradient became non-finite at step ${t} (objective ${value}).`,
      );
    const c1 = 1 - o.beta1 ** t;
    const c2 = 1 - o.beta2 ** t;
    for (let q = 0; q < x.length; q++) {
      m[q] = o.beta1 * m[q] + (1 - o.beta1) * g[q];
      v[q] = o.beta2 * v[q] + (1 - o.beta2) * g[q] * g[q];
      x[q] -= (o.lr * (m[q] / c1)) / (Math.sqrt(v[q] / c2) + o.eps);
    }
    o.onStep?.({ step: t, passes: t, value, x, optimiser: 'Adam' });
    await checkpoint(o.signal);
  }
  // The reported value is at the final parameters, not one step behind.
  const value = await f(x, g);
  const n = gradNorms(g);
  return {
    x,
    value,
    steps: o.maxSteps,
    passes: o.maxSteps + 1,
    converged: false,
    reason: 'max-steps',
    gradNorm: n.scaled,
    gradMax: n.raw,
  };
}

export interface LbfgsOptions extends OptimOptions {
  /**
   * Converged when both: |Δf| / max(|f|, 1) < tol on 3 consecutive iterations,
   * and the scaled gradient norm max_q √P_q |g_q| ≤ gtol.
   */
  tol: number;
  gtol: number;
  memory?: number;
  /**
   * Diagonal of an initial inverse-Hessian guess (a preconditioner). The
   * curvature of θ_j, an item's options and the global gate differ by orders of
   * magnitude (they see n_j, n_i and all cells), which a scalar H0 cannot span.
   */
  precond?: Float64Array;
  /**
   * Probed block curvature (blocks.ts) as H0 in place of the diagonal P, probed
   * at the start and again every `every` steps; P still scales the convergence
   * test, so what "converged" means does not change.
   */
  curvature?: {
    /**
     * `afterPass` runs after each of its passes (a cancel check); `into`, the
     * previous probe, lends its storage (at the paper's full shape about 40 MB).
     */
    probe: (
      x: Float64Array,
      afterPass: () => Promise<void>,
      into?: BlockInverse,
    ) => Promise<BlockInverse>;
    every: number;
  };
}

/*
 * The vector kernels below keep four partial sums: one sum's chain of
 * dependent additions, not the arithmetic, bounds a pass over memory
 * (about 2 ns an entry at 24,160 parameters, 0.8 with four).
 */

function dot(a: Float64Array, b: Float64Array): number {
  const n = a.length;
  const n4 = n - (n % 4);
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  for (let q = 0; q < n4; q += 4) {
    s0 += a[q] * b[q];
    s1 += a[q + 1] * b[q + 1];
    s2 += a[q + 2] * b[q + 2];
    s3 += a[q + 3] * b[q + 3];
  }
  for (let q = n4; q < n; q++) s0 += a[q] * b[q];
  return s0 + s1 + (s2 + s3);
}

/** d += c·x, then wᵀd, in one pass. */
function axpyDot(d: Float64Array, c: number, x: Float64Array, w: Float64Array): number {
  const n = d.length;
  const n4 = n - (n % 4);
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  for (let q = 0; q < n4; q += 4) {
    const v0 = d[q] + c * x[q];
    const v1 = d[q + 1] + c * x[q + 1];
    const v2 = d[q + 2] + c * x[q + 2];
    const v3 = d[q + 3] + c * x[q + 3];
    d[q] = v0;
    d[q + 1] = v1;
    d[q + 2] = v2;
    d[q + 3] = v3;
    s0 += w[q] * v0;
    s1 += w[q + 1] * v1;
    s2 += w[q + 2] * v2;
    s3 += w[q + 3] * v3;
  }
  for (let q = n4; q < n; q++) {
    const v = d[q] + c * x[q];
    d[q] = v;
    s0 += w[q] * v;
  }
  return s0 + s1 + (s2 + s3);
}

/** L-BFGS's curvature memory: pairs (s, y) oldest first, with sᵀy and yᵀPy of each. */
interface Memory {
  S: Float64Array[];
  Y: Float64Array[];
  /** 1 / sᵀy. */
  rhos: number[];
  sy: number[];
  yPy: number[];
  /** Pairs taken so far (never reset): which pair is newest. */
  taken: number;
}

/**
 * d = −H g by the two-loop recursion, H0 = γ·diag(P) with γ = sᵀy / yᵀPy of the
 * newest pair (1 / max(1, √gᵀPg) without pairs). Each axpy shares its pass over
 * memory with the next pair's dot product, and H0's scaling with the last axpy of
 * the first loop and the first dot of the second: the plain recursion's
 * arithmetic (its dot products summed in four interleaved parts) in about half
 * the passes over the n-vectors, which at 10⁶ parameters and 30 pairs cost as
 * much as a pass over the data.
 */
function direction(
  d: Float64Array,
  g: Float64Array,
  mem: Memory,
  alpha: Float64Array,
  P: Float64Array | undefined,
  H0?: BlockH0,
): void {
  const n = g.length;
  const { S, Y, rhos } = mem;
  const m = S.length;
  if (m === 0 && H0) {
    applyBlocks(H0.inv, g, d, H0.tmp);
    for (let q = 0; q < n; q++) d[q] = -d[q];
    return;
  }
  if (m === 0) {
    let ghg = 0;
    for (let q = 0; q < n; q++) ghg += g[q] * g[q] * (P ? P[q] : 1);
    const gamma = 1 / Math.max(1, Math.sqrt(ghg));
    for (let q = 0; q < n; q++) d[q] = -g[q] * (gamma * (P ? P[q] : 1));
    return;
  }
  if (H0 && H0.yAt !== mem.taken) {
    H0.yBy = quadBlocks(H0.inv, Y[m - 1], H0.tmp);
    H0.yAt = mem.taken;
  }
  const gamma = mem.sy[m - 1] / (H0 ? H0.yBy : mem.yPy[m - 1]);
  for (let q = 0; q < n; q++) d[q] = -g[q];
  let a = rhos[m - 1] * dot(S[m - 1], d);
  // First loop, k = m−1 … 0: d −= α_k y_k, then α_(k−1) = ρ s_(k−1)ᵀd (or, after
  // k = 0, d ·= γP and β_0 = ρ_0 y_0ᵀd).
  for (let k = m - 1; k > 0; k--) {
    alpha[k] = a;
    a = rhos[k - 1] * axpyDot(d, -a, Y[k], S[k - 1]);
  }
  alpha[0] = a;
  const y0 = Y[0];
  let acc = 0;
  if (H0) {
    // d −= α_0 y_0, then d = γ B⁻¹ d and β_0's dot.
    for (let q = 0; q < n; q++) d[q] -= a * y0[q];
    applyBlocks(H0.inv, d, H0.out, H0.tmp);
    const out = H0.out;
    for (let q = 0; q < n; q++) {
      const v = gamma * out[q];
      d[q] = v;
      acc += y0[q] * v;
    }
  } else
    for (let q = 0; q < n; q++) {
      const v = (d[q] - a * y0[q]) * (gamma * (P ? P[q] : 1));
      d[q] = v;
      acc += y0[q] * v;
    }
  let b = rhos[0] * acc;
  // Second loop, k = 0 … m−1: d += (α_k − β_k) s_k, then β_(k+1) = ρ y_(k+1)ᵀd.
  for (let k = 0; k + 1 < m; k++) b = rhos[k + 1] * axpyDot(d, alpha[k] - b, S[k], Y[k + 1]);
  const c = alpha[m - 1] - b;
  const s = S[m - 1];
  for (let q = 0; q < n; q++) d[q] += c * s[q];
}

/** A probed block inverse as H0, with its scratch. */
interface BlockH0 {
  inv: BlockInverse;
  tmp: Float64Array;
  out: Float64Array;
  /** yᵀB⁻¹y of the newest pair (γ's denominator) when the memory had taken `yAt` pairs. */
  yBy: number;
  yAt: number;
}

/**
 * How far a trial point's objective may lie above the current one and still be
 * judged by its slope alone (Hager & Zhang's approximate Wolfe conditions), as a
 * share of |f|. Near the optimum of a large data set the decrease a step can make
 * (about 1e-9 at the paper's 6 M cells) is below the round-off of the objective's
 * float64 sum; the gradients, summed per parameter, stay accurate.
 */
export const APPROX_WOLFE_REL = 1e-12;

/**
 * Limited-memory BFGS with a weak-Wolfe bisection line search (Lewis & Overton),
 * whose sufficient-decrease test falls back to Hager & Zhang's approximate form
 * (φ'(t) ≤ (2·1e-4 − 1)·φ'(0), with φ(t) ≤ φ(0) + APPROX_WOLFE_REL·|φ(0)|) where
 * the objective's own change is below its round-off. Each function evaluation is
 * one loss+gradient pass over the data.
 */
export async function lbfgs(f: Objective, x0: Float64Array, o: LbfgsOptions): Promise<OptimResult> {
  const n = x0.length;
  const memSize = o.memory ?? 10;
  const mem: Memory = { S: [], Y: [], rhos: [], sy: [], yPy: [], taken: 0 };
  const forget = () => {
    mem.S.length = mem.Y.length = mem.rhos.length = mem.sy.length = mem.yPy.length = 0;
  };
  const P = o.precond;
  // The next pair's vectors: fresh until the memory is full, then the oldest pair's.
  let sNext: Float64Array = new Float64Array(n);
  let yNext: Float64Array = new Float64Array(n);
  const x = Float64Array.from(x0);
  let g = new Float64Array(n);
  // Mixed precision: coarse until a line search fails or either convergence
  // test passes (the objective's or the gradient's); then float64 from
  // the same point and curvature memory to the end (float32 round-off in the
  // objective is about 1e-7 per cell, beyond what a line search near the
  // optimum can resolve, while its gradients are accurate to about 1e-6).
  let coarse = o.coarse === true;
  let fx = await f(x, g, coarse);
  let passes = 1;
  if (!Number.isFinite(fx) || !allFinite(g))
    throw new Error(
      `L-BFGS: the objective or its gradient is not finite at the start (f = ${fx}).`,
    );
  let norm = gradNorms(g, o.precond).scaled;
  let reason: StopReason = 'max-steps';
  const d = new Float64Array(n);
  const alpha = new Float64Array(memSize);
  let calm = 0;
  let step = 0;
  const xn = new Float64Array(n);
  let gn = new Float64Array(n);
  /** Leaves coarse evaluation: the objective and gradient at x again, in float64. */
  const refine = async () => {
    coarse = false;
    fx = await f(x, g, false);
    passes++;
    calm = 0;
    norm = gradNorms(g, o.precond).scaled;
  };
  const cv = o.curvature;
  let H0: BlockH0 | undefined;
  let probedAt = -Infinity;
  while (step < o.maxSteps) {
    if (cv && step - probedAt >= cv.every) {
      const inv = await cv.probe(x, () => checkpoint(o.signal), H0?.inv);
      passes += inv.passes;
      probedAt = step;
      H0 = {
        inv,
        tmp: H0?.tmp ?? new Float64Array(2 * inv.width),
        out: H0?.out ?? new Float64Array(n),
        yBy: 0,
        yAt: -1,
      };
    }
    direction(d, g, mem, alpha, P, H0);
    let dg = dot(d, g);
    if (!(dg < 0) && coarse) {
      await refine();
      continue;
    }
    if (!(dg < 0)) {
      // Not a descent direction (round-off): restart from steepest descent.
      forget();
      const scale = Math.max(1, Math.sqrt(dot(g, g)));
      for (let q = 0; q < n; q++) d[q] = -g[q] / scale;
      dg = dot(d, g);
      if (!(dg < 0)) {
        reason = 'no-progress';
        break;
      }
    }
    // Weak Wolfe line search by bisection/doubling.
    const fTol = APPROX_WOLFE_REL * Math.abs(fx);
    let lo = 0;
    let hi = Infinity;
    let t = 1;
    let fn = NaN;
    let accepted = false;
    for (let ls = 0; ls < 30; ls++) {
      for (let q = 0; q < n; q++) xn[q] = x[q] + t * d[q];
      fn = await f(xn, gn, coarse);
      passes++;
      await checkpoint(o.signal);
      // A trial point whose objective or gradient is not finite is treated as too far.
      const slope = Number.isFinite(fn) && allFinite(gn) ? dot(gn, d) : NaN;
      const decrease = fn <= fx + 1e-4 * t * dg || (fn <= fx + fTol && slope <= (2e-4 - 1) * dg);
      if (Number.isNaN(slope) || !decrease) hi = t;
      else if (slope < 0.9 * dg) lo = t;
      else {
        accepted = true;
        break;
      }
      t = hi < Infinity ? (lo + hi) / 2 : 2 * lo;
    }
    if (!accepted && !(Number.isFinite(fn) && allFinite(gn) && fn < fx) && coarse) {
      await refine();
      continue;
    }
    if (!accepted && !(Number.isFinite(fn) && allFinite(gn) && fn < fx)) {
      // A stale curvature memory can point nowhere useful: forget it and try
      // the preconditioned steepest descent before giving up.
      if (mem.S.length > 0) {
        forget();
        continue;
      }
      reason = 'no-progress'; // No further decrease is possible at this precision.
      break;
    }
    step++;
    // s = xn − x, y = gn − g, and sᵀy, sᵀs, yᵀy, yᵀPy, in one pass.
    let sy = 0;
    let ss = 0;
    let yy = 0;
    let yPy = 0;
    for (let q = 0; q < n; q++) {
      const sq = xn[q] - x[q];
      const yq = gn[q] - g[q];
      sNext[q] = sq;
      yNext[q] = yq;
      sy += sq * yq;
      ss += sq * sq;
      yy += yq * yq;
      yPy += yq * yq * (P ? P[q] : 1);
    }
    if (sy > 1e-12 * Math.sqrt(ss * yy)) {
      mem.S.push(sNext);
      mem.Y.push(yNext);
      mem.rhos.push(1 / sy);
      mem.taken++;
      mem.sy.push(sy);
      mem.yPy.push(yPy);
      if (mem.S.length > memSize) {
        sNext = mem.S.shift()!;
        yNext = mem.Y.shift()!;
        mem.rhos.shift();
        mem.sy.shift();
        mem.yPy.shift();
      } else {
        sNext = new Float64Array(n);
        yNext = new Float64Array(n);
      }
    }
    const rel = Math.abs(fx - fn) / Math.max(Math.abs(fn), 1);
    x.set(xn);
    [g, gn] = [gn, g];
    fx = fn;
    o.onStep?.({ step, passes, value: fx, x, optimiser: 'L-BFGS' });
    calm = rel < o.tol ? calm + 1 : 0;
    norm = gradNorms(g, o.precond).scaled;
    if (coarse && (calm >= 3 || norm <= o.gtol)) await refine();
    if (calm >= 3 && norm <= o.gtol) {
      reason = 'gradient';
      break;
    }
  }
  // The step cap reached while still coarse: the reported value is float64.
  if (coarse) await refine();
  // A stall exactly at a stationary point still counts as converged.
  if (reason === 'no-progress' && norm <= o.gtol) reason = 'gradient';
  const converged = reason === 'gradient';
  return {
    x,
    value: fx,
    steps: step,
    passes,
    converged,
    reason,
    gradNorm: norm,
    gradMax: gradNorms(g).raw,
  };
}
