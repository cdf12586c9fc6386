/** Full-batch Adam over a flat float64 vector, as the paper fits. */
import { allFinite, gradNorms, yielder } from './types';
import type { Objective, OptimOptions, OptimResult } from './types';

/** Adam's step size, moment decays and denominator guard (Kingma & Ba's names). */
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
  const checkpoint = yielder(o.signal);
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
    await checkpoint();
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
