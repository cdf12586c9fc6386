import { describe, expect, it } from 'vitest';
import { lbfgs } from './optim/lbfgs';
import { STALL_STEPS } from './optim/types';
import { stopWords, continuingCannotHelp } from './stopWords';

describe('the stall rule', () => {
  it('a smooth quadratic converges by the gradient test, not by the stall rule', async () => {
    const quad = async (x: Float64Array, g: Float64Array) => {
      g[0] = 100 * x[0];
      g[1] = x[1];
      return 50 * x[0] * x[0] + 0.5 * x[1] * x[1];
    };
    const r = await lbfgs(quad, Float64Array.from([1, 1]), {
      maxSteps: 1000,
      tol: 1e-12,
      gtol: 1e-9,
      stallSteps: 5,
    });
    expect(r.reason).toBe('gradient');
  });

  it('words: a stalled eq. 10 fit names the kink and is not offered Continue', () => {
    const f = {
      stopReason: 'stalled' as const,
      steps: 7590,
      gradNorm: 0.3,
      gate: 'eq10' as const,
      gateMax: 0.4,
    };
    expect(stopWords(f)).toContain(`stopped changing for ${STALL_STEPS} steps running`);
    expect(stopWords(f)).toContain("Eq. 10's gate divides by an item's key slope");
    expect(continuingCannotHelp(f)).toBe(true);
    const capped = { ...f, stopReason: 'max-steps' as const, gate: 'margin' as const };
    expect(stopWords(capped)).toBe(
      'It reached its step cap of 7590 steps, gradient norm 3.0e-1 before the gradient test passed.',
    );
    expect(continuingCannotHelp(capped)).toBe(false);
    // A model without the gate (nrm-soft: no gateMax) is not told about eq. 10.
    const soft = { stopReason: 'stalled' as const, steps: 9, gradNorm: 0.3 };
    expect(stopWords(soft)).not.toContain('Eq. 10');
  });
});
