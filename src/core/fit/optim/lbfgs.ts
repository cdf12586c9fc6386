/** Limited-memory BFGS (L-BFGS) over a flat float64 vector. */
import type { BlockInverse } from '../blockInverse';
import { direction, remember, type BlockH0, type Memory } from './direction';
import { wolfeLineSearch } from './lineSearch';
import {
  allFinite,
  gradNorms,
  yielder,
  type Objective,
  type OptimOptions,
  type OptimResult,
  type StopReason,
  STALL_STEPS,
} from './types';
import { dot } from './vector';

export interface LbfgsOptions extends OptimOptions {
  /**
   * Converged when both: |Δf| / max(|f|, 1) < tol on 3 consecutive iterations,
   * and the scaled gradient norm max_q √P_q |g_q| ≤ gtol.
   */
  tol: number;
  gtol: number;
  /**
   * Stops as `stalled` after this many consecutive steps whose relative
   * change is below `tol` while the gradient test fails (default STALL_STEPS).
   */
  stallSteps?: number;
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

/**
 * Limited-memory BFGS with a weak-Wolfe line search (`wolfeLineSearch`, with
 * Hager & Zhang's approximate sufficient decrease where the objective's own
 * change is below its round-off). Each function evaluation is one
 * loss+gradient pass over the data.
 */
export async function lbfgs(f: Objective, x0: Float64Array, o: LbfgsOptions): Promise<OptimResult> {
  const n = x0.length;
  const memSize = o.memory ?? 10;
  const mem: Memory = { S: [], Y: [], rhos: [], sy: [], yPy: [], taken: 0 };
  const forget = () => {
    mem.S.length = mem.Y.length = mem.rhos.length = mem.sy.length = mem.yPy.length = 0;
  };
  const P = o.precond;
  const checkpoint = yielder(o.signal);
  // The next pair's vectors: fresh until the memory is full, then the oldest pair's.
  const spare = { s: new Float64Array(n), y: new Float64Array(n) };
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
      H0 = await probeH0(cv, x, checkpoint, H0);
      passes += H0.inv.passes;
      probedAt = step;
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
      dg = steepestDescent(d, g);
      if (!(dg < 0)) {
        reason = 'no-progress';
        break;
      }
    }
    const ls = await wolfeLineSearch(f, { x, fx, d, dg }, xn, gn, coarse, checkpoint);
    passes += ls.passes;
    const fn = ls.fn;
    const better = Number.isFinite(fn) && allFinite(gn) && fn < fx;
    if (!ls.accepted && !better && coarse) {
      await refine();
      continue;
    }
    if (!ls.accepted && !better) {
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
    remember(mem, memSize, spare, x, xn, g, gn, P);
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
    if (calm >= (o.stallSteps ?? STALL_STEPS) && !coarse) {
      reason = 'stalled';
      break;
    }
  }
  // The step cap reached while still coarse: the reported value is float64.
  if (coarse) await refine();
  // A stall exactly at a stationary point still counts as converged.
  if (reason === 'no-progress' && norm <= o.gtol) reason = 'gradient';
  return {
    x,
    value: fx,
    steps: step,
    passes,
    converged: reason === 'gradient',
    reason,
    gradNorm: norm,
    gradMax: gradNorms(g).raw,
  };
}

/** A fresh block-curvature H0 at x, reusing the previous probe's storage and scratch. */
async function probeH0(
  cv: NonNullable<LbfgsOptions['curvature']>,
  x: Float64Array,
  afterPass: () => Promise<void>,
  prev: BlockH0 | undefined,
): Promise<BlockH0> {
  const inv = await cv.probe(x, afterPass, prev?.inv);
  return {
    inv,
    tmp: prev?.tmp ?? new Float64Array(2 * inv.width),
    out: prev?.out ?? new Float64Array(x.length),
    yBy: 0,
    yAt: -1,
  };
}

/** d = −g / max(1, ‖g‖) (steepest descent); returns dᵀg. */
function steepestDescent(d: Float64Array, g: Float64Array): number {
  const scale = Math.max(1, Math.sqrt(dot(g, g)));
  for (let q = 0; q < g.length; q++) d[q] = -g[q] / scale;
  return dot(d, g);
}
