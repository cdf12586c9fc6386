import { describe, expect, it } from 'vitest';
import { tinyDataset } from '../testing/tiny.ts';
import { itemPreview } from './itemPreview.ts';

describe('itemPreview', () => {
  it('counts each LLM top choice per item over observed cells only (hand-counted)', () => {
    const p = itemPreview(tinyDataset());
    // Item 0 (key A): tops A, B, C.
    expect(p.accuracy[0]).toBeCloseTo(1 / 3, 12);
    expect(p.choice[0]).toEqual([1 / 3, 1 / 3, 1 / 3]);
    // Item 1 (key C): LLM 2 missing; tops C, C.
    expect(p.n[1]).toBe(2);
    expect(p.accuracy[1]).toBe(1);
    expect(p.choice[1]).toEqual([0, 0, 1]);
    // Item 2 (key B, 2 options): tops B, A, and a tie 0.5/0.5 goes to the first (A).
    expect(p.choice[2]).toEqual([2 / 3, 1 / 3]);
    expect(p.accuracy[2]).toBeCloseTo(1 / 3, 12);
  });
});
