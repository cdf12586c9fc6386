import { describe, expect, it } from 'vitest';
import { strengthPath } from './path';

describe('strengthPath', () => {
  it('runs from 4 down the rungs 2^(k/4) strictly above λ', () => {
    // 2^(7/4) = 3.3636, 2^(6/4) = 2.8284, 2^(5/4) = 2.3784, 2, 2^(3/4) = 1.6818.
    expect(strengthPath(1.5).map((l) => Number(l.toFixed(4)))).toEqual([
      4, 3.3636, 2.8284, 2.3784, 2, 1.6818,
    ]);
  });
  it('stops above a λ that is itself a rung, and is empty at or above the top', () => {
    expect(strengthPath(2)).toEqual([4, 2 ** (7 / 4), 2 ** (6 / 4), 2 ** (5 / 4)]);
    expect(strengthPath(4)).toEqual([]);
    expect(strengthPath(16)).toEqual([]);
  });
  it('is the same ladder for every λ between two rungs', () => {
    expect(strengthPath(1.42)).toEqual(strengthPath(1.68));
  });
});
