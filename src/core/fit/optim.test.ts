import { describe, expect, it } from 'vitest';
import { adam, lbfgs, type Objective } from './optim';

/** f(x) = Σ w_q (x_q − 1)², minimum 0 at x = 1: a hand-checkable quadratic. */
function quadratic(w: number[]): Objective {
  return async (x, g) => {
    let f = 0;
    for (let q = 0; q < x.length; q++) {
      f += w[q] * (x[q] - 1) ** 2;
      g[q] = 2 * w[q] * (x[q] - 1);
    }
    return f;
  };
}

describe('L-BFGS stopping rule', () => {
  it('converges on the gradient test, not on a small change in f alone', async () => {
    const r = await lbfgs(quadratic([1, 100, 1e-3]), new Float64Array(3), {
      maxSteps: 500,
      tol: 1e-8,
      gtol: 1e-6,
    });
    expect(r.reason).toBe('gradient');
    expect(r.converged).toBe(true);
    expect(r.gradNorm).toBeLessThanOrEqual(1e-6);
    // The stiff coordinate's minimum is 1; the flat one (weight 1e-3) must get there too.
    expect(Math.abs(r.x[2] - 1)).toBeLessThan(1e-3);
  });

  it('a flat objective with a large gradient is not converged', async () => {
    // f changes by < tol per step once x is far out, but the gradient stays 1.
    const f: Objective = async (x, g) => {
      g[0] = 1;
      return 1e12 + x[0] * 1e-9;
    };
    const r = await lbfgs(f, new Float64Array(1), { maxSteps: 20, tol: 1e-8, gtol: 1e-6 });
    expect(r.converged).toBe(false);
    expect(['max-steps', 'no-progress']).toContain(r.reason);
  });

  it("converges where the objective's round-off hides the last decreases (approximate Wolfe)", async () => {
    // A quadratic (curvatures 1 … 1,000) on a large offset, as a sum over millions of
    // cells is, with a deterministic "round-off" of ±1e-7 in f and none in the
    // gradient. Near the optimum a step's decrease (|g|²/2h, 5e-9 at |g| = 1e-4)
    // is below it, so only the slope can tell a good step from a bad one.
    const n = 20;
    const h = Array.from({ length: n }, (_, q) => 10 ** ((3 * q) / (n - 1)));
    const noise = (x: Float64Array) => {
      let u = 0;
      for (let q = 0; q < n; q++) u += Math.sin(1e6 * x[q] + q);
      return 1e-7 * Math.sin(1e3 * u);
    };
    const f: Objective = async (x, g) => {
      let v = 1e7;
      for (let q = 0; q < n; q++) {
        g[q] = h[q] * (x[q] - 1);
        v += 0.5 * h[q] * (x[q] - 1) ** 2;
      }
      return v + noise(x);
    };
    const r = await lbfgs(f, new Float64Array(n), { maxSteps: 500, tol: 1e-12, gtol: 1e-6 });
    expect(r.reason).toBe('gradient');
    expect(r.gradNorm).toBeLessThanOrEqual(1e-6);
    for (let q = 0; q < n; q++) expect(Math.abs(r.x[q] - 1)).toBeLessThan(1e-6);
  });

  it('stops at the step cap and says so', async () => {
    const r = await lbfgs(quadratic([1, 1e4]), new Float64Array(2), {
      maxSteps: 1,
      tol: 1e-12,
      gtol: 1e-12,
    });
    expect(r.converged).toBe(false);
    expect(r.reason).toBe('max-steps');
  });

  it('rejects a non-finite gradient at the start', async () => {
    const f: Objective = async (_x, g) => {
      g[0] = NaN;
      return 1;
    };
    await expect(
      lbfgs(f, new Float64Array(1), { maxSteps: 5, tol: 1e-8, gtol: 1e-6 }),
    ).rejects.toThrow(/not finite/);
  });

  it('treats a trial point with a NaN gradient and finite f as too far, and never reports it', async () => {
    // Beyond x = 2 the gradient is NaN although f is finite.
    const f: Objective = async (x, g) => {
      g[0] = x[0] > 2 ? NaN : 2 * (x[0] - 1.5);
      return (x[0] - 1.5) ** 2;
    };
    const r = await lbfgs(f, Float64Array.of(-10), { maxSteps: 50, tol: 1e-10, gtol: 1e-8 });
    expect(Number.isFinite(r.x[0])).toBe(true);
    expect(r.x[0]).toBeLessThanOrEqual(2);
    expect(r.converged).toBe(true);
    expect(Math.abs(r.x[0] - 1.5)).toBeLessThan(1e-6);
  });
});

/**
 * The quadratic with a float32-like coarse mode: every coarse value is biased by
 * +0.25 and carries a ±1e-3 wobble that no line search near the minimum can see
 * through; coarse gradients are rounded to float32. `log` records each call's mode.
 */
function mixedQuadratic(w: number[], log: boolean[]): Objective {
  const exact = quadratic(w);
  return async (x, g, coarse = false) => {
    log.push(coarse);
    const f = await exact(x, g);
    if (!coarse) return f;
    for (let q = 0; q < g.length; q++) g[q] = Math.fround(g[q]);
    return f + 0.25 + 1e-3 * Math.sin(1e6 * x[0]);
  };
}

describe('mixed precision (coarse evaluations)', () => {
  const w = [1, 30, 0.2, 5, 0.05];

  it('L-BFGS starts coarse, finishes in float64, and reports the float64 value', async () => {
    const log: boolean[] = [];
    const f = mixedQuadratic(w, log);
    const r = await lbfgs(f, new Float64Array(w.length), {
      maxSteps: 500,
      tol: 1e-10,
      gtol: 1e-7,
      coarse: true,
    });
    expect(r.reason).toBe('gradient');
    expect(r.gradNorm).toBeLessThanOrEqual(1e-7);
    for (const v of r.x) expect(Math.abs(v - 1)).toBeLessThan(1e-5);
    // The value is the float64 objective at x (the coarse one is 0.25 above).
    expect(r.value).toBe(await quadratic(w)(r.x, new Float64Array(w.length)));
    // Coarse first; once float64, never coarse again; every pass counted.
    expect(log[0]).toBe(true);
    const firstExact = log.indexOf(false);
    expect(firstExact).toBeGreaterThan(0);
    expect(log.slice(firstExact).every((c) => !c)).toBe(true);
    expect(r.passes).toBe(log.length);
  });

  it('L-BFGS at its step cap while still coarse reports the float64 value', async () => {
    const log: boolean[] = [];
    const r = await lbfgs(mixedQuadratic(w, log), new Float64Array(w.length), {
      maxSteps: 2,
      tol: 1e-12,
      gtol: 1e-12,
      coarse: true,
    });
    expect(r.reason).toBe('max-steps');
    expect(log.at(-1)).toBe(false);
    expect(r.value).toBe(await quadratic(w)(r.x, new Float64Array(w.length)));
  });

  it('without `coarse` every evaluation is float64', async () => {
    const log: boolean[] = [];
    await lbfgs(mixedQuadratic(w, log), new Float64Array(w.length), {
      maxSteps: 50,
      tol: 1e-10,
      gtol: 1e-7,
    });
    expect(log.every((c) => !c)).toBe(true);
    log.length = 0;
    await adam(mixedQuadratic(w, log), new Float64Array(w.length), {
      maxSteps: 5,
      lr: 0.1,
      beta1: 0.9,
      beta2: 0.999,
      eps: 1e-8,
    });
    expect(log.every((c) => !c)).toBe(true);
  });

  it('Adam takes every step coarsely and reports the float64 value at its end', async () => {
    const log: boolean[] = [];
    const r = await adam(mixedQuadratic(w, log), new Float64Array(w.length), {
      maxSteps: 5,
      lr: 0.1,
      beta1: 0.9,
      beta2: 0.999,
      eps: 1e-8,
      coarse: true,
    });
    expect(log).toEqual([true, true, true, true, true, false]);
    expect(r.value).toBe(await quadratic(w)(r.x, new Float64Array(w.length)));
  });
});

describe('Adam', () => {
  it('runs its fixed steps, reports max-steps and rejects a NaN gradient', async () => {
    const r = await adam(quadratic([1]), new Float64Array(1), {
      maxSteps: 10,
      lr: 0.05,
      beta1: 0.9,
      beta2: 0.999,
      eps: 1e-8,
    });
    expect(r.reason).toBe('max-steps');
    expect(r.converged).toBe(false);
    const bad: Objective = async (_x, g) => {
      g[0] = NaN;
      return 0;
    };
    await expect(
      adam(bad, new Float64Array(1), {
        maxSteps: 3,
        lr: 0.05,
        beta1: 0.9,
        beta2: 0.999,
        eps: 1e-8,
      }),
    ).rejects.toThrow(/non-finite/);
  });
});
