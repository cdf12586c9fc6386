import { describe, expect, it } from 'vitest';
import { drawOneHot, simulateNominal } from './simulate';

describe('one categorical draw a cell (oneHot)', () => {
  it('picks the option whose cumulative share u falls in', () => {
    const p = () => Float64Array.from([0.2, 0.5, 0.3]);
    const pick = (u: number) => {
      const q = p();
      drawOneHot(q, 3, u);
      return Array.from(q);
    };
    expect(pick(0)).toEqual([1, 0, 0]);
    expect(pick(0.1999)).toEqual([1, 0, 0]);
    expect(pick(0.2)).toEqual([0, 1, 0]);
    expect(pick(0.6999)).toEqual([0, 1, 0]);
    expect(pick(0.7)).toEqual([0, 0, 1]);
    expect(pick(0.9999)).toEqual([0, 0, 1]);
  });

  it('gives one-hot cells whose shares match the soft data of the same seed', () => {
    const opts = { J: 40, I: 200, seed: 3, K: 4 };
    const soft = simulateNominal(opts).data;
    const hard = simulateNominal({ ...opts, oneHot: true }).data;
    let sumSoft = 0;
    let sumHard = 0;
    for (let c = 0; c < soft.J * soft.I; c++) {
      const off = c * soft.Kmax;
      const row = Array.from(hard.obs.subarray(off, off + 4));
      expect(row.filter((v) => v === 1)).toHaveLength(1);
      expect(row.reduce((a, b) => a + b, 0)).toBe(1);
      sumSoft += soft.obs[off]; // option A's probability
      sumHard += hard.obs[off];
    }
    // 8,000 draws: option A's share within 4 binomial sd of its mean probability.
    const n = soft.J * soft.I;
    const mean = sumSoft / n;
    expect(Math.abs(sumHard / n - mean)).toBeLessThan(4 * Math.sqrt((mean * (1 - mean)) / n));
  });
});
