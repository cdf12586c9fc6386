import { describe, expect, it } from 'vitest';
import { bestRow } from './ResultTable';

describe('bestRow', () => {
  const rows = [{ v: 0.4 }, { v: NaN }, { v: 0.35 }, { v: 0.35 }, { v: 0.9 }];
  it('takes the lowest or highest finite value, first on ties', () => {
    expect(bestRow(rows, { value: (r) => r.v, better: 'lower' })).toBe(2);
    expect(bestRow(rows, { value: (r) => r.v, better: 'higher' })).toBe(4);
  });
  it('is -1 when no value is finite', () => {
    expect(bestRow([{ v: NaN }], { value: (r) => r.v, better: 'lower' })).toBe(-1);
  });
});
