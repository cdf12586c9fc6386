import { describe, expect, it } from 'vitest';
import { tinyDataset } from '../eval/testing';
import { fitDataset } from '../fit/fit';
import { classicalAnalysis } from './classical';
import { correctnessMatrix, cronbachAlpha } from './correctness';
import { reliability } from './reliability';
import { simulateBinary } from './simulate';

// 4 LLMs × 3 items (K = 3, key A). Correctness: L1 111, L2 110, L3 100, L4 000.
const one = (k: number) => [0, 1, 2].map((q) => (q === k ? 0.9 : 0.05));
const ds = tinyDataset(
  [
    { id: 'i1', K: 3, key: 0 },
    { id: 'i2', K: 3, key: 0 },
    { id: 'i3', K: 3, key: 0 },
  ],
  [
    ['L1', 'i1', one(0)],
    ['L1', 'i2', one(0)],
    ['L1', 'i3', one(0)],
    ['L2', 'i1', one(0)],
    ['L2', 'i2', one(0)],
    ['L2', 'i3', one(1)],
    ['L3', 'i1', one(0)],
    ['L3', 'i2', one(2)],
    ['L3', 'i3', one(1)],
    ['L4', 'i1', one(1)],
    ['L4', 'i2', one(1)],
    ['L4', 'i3', one(2)],
  ],
);

describe('classical item analysis', () => {
  it('proportion correct, item–rest correlation, option shares and DDplot shares', () => {
    const res = classicalAnalysis(ds, 2);
    expect(res.items.map((r) => r.pCorrect)).toEqual([0.75, 0.5, 0.25]);
    expect(res.items[0].meanKeyProb).toBeCloseTo((0.9 * 3 + 0.05) / 4, 6);
    // Item 1 vs rest shares (1, 0.5, 0, 0): r = 0.870 by hand.
    const y = [1, 1, 1, 0];
    const rest = [1, 0.5, 0, 0];
    const my = 0.75;
    const mr = 0.375;
    const sxy = y.reduce((s, v, q) => s + (v - my) * (rest[q] - mr), 0);
    const sxx = y.reduce((s, v) => s + (v - my) ** 2, 0);
    const syy = rest.reduce((s, v) => s + (v - mr) ** 2, 0);
    expect(res.items[0].itemRest).toBeCloseTo(sxy / Math.sqrt(sxx * syy), 10);
    const i3 = res.options.filter((r) => r.item === 'i3');
    expect(i3.map((r) => r.share)).toEqual([0.25, 0.5, 0.25]);
    // Two score groups: {L4, L3} low, {L2, L1} high.
    const dd = res.dd.filter((r) => r.item === 'i2' && r.option === 'A');
    expect(dd.map((r) => r.share)).toEqual([0, 1]);
    expect(res.items[1].ULI).toBe(1);
    for (const item of ['i1', 'i2', 'i3'])
      for (const g of [1, 2]) {
        const s = res.dd.filter((r) => r.item === item && r.group === g);
        expect(s.reduce((a, r) => a + r.share, 0)).toBeCloseTo(1, 12);
      }
  });

  it("Cronbach's α matches the hand formula", () => {
    const y = correctnessMatrix(ds);
    // Item variances (n − 1): 0.25, 1/3, 0.25; totals 3, 2, 1, 0 → var 5/3.
    const expected = (3 / 2) * (1 - (0.25 + 1 / 3 + 0.25) / (5 / 3));
    expect(cronbachAlpha(y, 4, 3, [0, 1, 2]).alpha).toBeCloseTo(expected, 12);
  });
});

describe('reliability on simulated 1PL data', () => {
  it('empirical and marginal reliability agree with α in size, and shrink on half the items', async () => {
    const { data } = simulateBinary({ J: 200, I: 40, seed: 5 });
    const fit = await fitDataset(data, { model: '1pl' });
    const rows = reliability(fit, data);
    console.log('reliability', JSON.stringify(rows));
    const all = rows[0];
    expect(all.benchmark).toBe('all');
    expect(rows.map((r) => r.benchmark)).toEqual(['all', 'bench-0', 'bench-1']);
    // On Rasch data α and the IRT reliabilities estimate the same quantity.
    expect(Math.abs(all.empirical - all.alpha)).toBeLessThan(0.05);
    expect(Math.abs(all.marginal - all.alpha)).toBeLessThan(0.05);
    for (const r of rows.slice(1)) {
      expect(r.empirical).toBeLessThan(all.empirical);
      expect(r.marginal).toBeLessThan(all.marginal);
      expect(r.alpha).toBeLessThan(all.alpha);
    }
  }, 60_000);
});
