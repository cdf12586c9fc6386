import { describe, expect, it } from 'vitest';
import { pairedT } from './paired';

describe('pairedT', () => {
  it('the paired t of the folds: differences 0.01, 0.02, 0.03 give 0.02 / (0.01/√3)', () => {
    expect(pairedT([0.41, 0.42, 0.43], [0.4, 0.4, 0.4])).toBeCloseTo(2 * Math.sqrt(3), 12);
    // Differences 0.03, −0.01, 0.01, −0.02, 0.04: mean 0.01, sd √(0.0026/4).
    const t = pairedT([0.4, 0.4, 0.4, 0.4, 0.4], [0.37, 0.41, 0.39, 0.42, 0.36]);
    expect(t).toBeCloseTo(0.01 / (Math.sqrt(0.0026 / 4) / Math.sqrt(5)), 12);
    expect(pairedT([0.4, 0.4], [0.39, 0.39])).toBe(Infinity);
    expect(pairedT([0.4, 0.4], [0.4, 0.4])).toBe(0);
  });
});
