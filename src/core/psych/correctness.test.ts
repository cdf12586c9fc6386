import { describe, expect, it } from 'vitest';
import { tinyDataset } from '../eval/testing';
import { answerAt, isCorrect } from '../model/cells';
import { correctnessMatrix } from './correctness';

// 2 LLMs × 2 items: i1 (K 3, key B), i2 (K 2, key A). L2 skips i2.
const ds = tinyDataset(
  [
    { id: 'i1', K: 3, key: 1 },
    { id: 'i2', K: 2, key: 0 },
  ],
  [
    ['L1', 'i1', [0.2, 0.5, 0.3]],
    ['L1', 'i2', [0.4, 0.6]],
    ['L2', 'i1', [0.4, 0.4, 0.2]],
  ],
);

describe('correctness: the answer (observed argmax) is the key', () => {
  it('per cell, the first option on ties, and NaN where missing', () => {
    // Cells j·I + i: 0 = (L1, i1), 1 = (L1, i2), 2 = (L2, i1), 3 = (L2, i2).
    expect([0, 1, 2].map((c) => answerAt(ds, c))).toEqual([1, 1, 0]);
    expect([0, 1, 2].map((c) => isCorrect(ds, c))).toEqual([true, false, false]);
    expect(Array.from(correctnessMatrix(ds))).toEqual([1, 0, 0, NaN]);
  });
});
