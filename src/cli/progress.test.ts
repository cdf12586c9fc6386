import { describe, expect, it } from 'vitest';
import { progressLine } from './fit';

describe('the fit progress line (issue 26: it printed "step 6/5")', () => {
  it("names a phase with its own step count, not the main fit's cap", () => {
    const p = { step: 6, maxSteps: 5, passes: 9, objective: 2897.40391, elapsedMs: 700 };
    expect(progressLine({ ...p, phase: 'choosing the prior strength' })).toBe(
      'choosing the prior strength: step 6  objective 2897.4039  0.7 s',
    );
    expect(progressLine({ ...p, step: 3 })).toBe('step 3/5  objective 2897.4039  0.7 s');
  });

  it('leaves out an objective not yet known', () => {
    expect(
      progressLine({
        step: 0,
        maxSteps: 5,
        passes: 1,
        objective: NaN,
        elapsedMs: 4600,
        phase: 'measuring the curvature (pass 11 of 11)',
      }),
    ).toBe('measuring the curvature (pass 11 of 11): step 0  4.6 s');
  });
});
