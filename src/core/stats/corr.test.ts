import { describe, expect, it } from 'vitest';
import { kendall, pearson, ranks, spearman } from './corr';

describe('correlations', () => {
  it('ranks ties by their average', () => {
    expect(Array.from(ranks([10, 20, 20, 5]))).toEqual([2, 3.5, 3.5, 1]);
  });
  it('matches hand-computed values', () => {
    // Pearson of (1,2,3,4) and (1,3,2,4) = 0.8; Kendall: 5 concordant, 1 discordant → 4/6.
    expect(pearson([1, 2, 3, 4], [1, 3, 2, 4])).toBeCloseTo(0.8, 12);
    expect(kendall([1, 2, 3, 4], [1, 3, 2, 4])).toBeCloseTo(4 / 6, 12);
    expect(spearman([1, 2, 3, 4], [10, 30, 20, 400])).toBeCloseTo(0.8, 12);
    expect(spearman([1, 2, 3], [3, 2, 1])).toBeCloseTo(-1, 12);
  });
});
