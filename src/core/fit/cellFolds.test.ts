import { describe, expect, it } from 'vitest';
import { simulateNominal } from '../model/simulate';
import { renameAndShuffle } from './bootstrap';
import { cellFolds, contentShare, NO_FOLD } from './cellFolds';

describe('cross-validation folds from the cells’ values (issue 27)', () => {
  const ds = simulateNominal({ J: 14, I: 300, seed: 8, missing: 0.1, concentration: 40 }).data;
  const folds = cellFolds(ds, 5, 1);

  it('puts every observed cell in one fold and deals each item evenly', () => {
    for (let i = 0; i < ds.I; i++) {
      const count = [0, 0, 0, 0, 0];
      for (let j = 0; j < ds.J; j++) {
        const f = folds[j * ds.I + i];
        if (!ds.observed[j * ds.I + i]) expect(f).toBe(NO_FOLD);
        else count[f]++;
      }
      expect(Math.max(...count) - Math.min(...count)).toBeLessThanOrEqual(1);
    }
  });

  it('gives each cell the same fold under other names and in another order', () => {
    const { data, llms, items } = renameAndShuffle(ds, 5);
    expect(data.llmIds.some((id, a) => id === ds.llmIds[llms[a]])).toBe(false);
    const again = cellFolds(data, 5, 1);
    for (let a = 0; a < ds.J; a++)
      for (let b = 0; b < ds.I; b++)
        expect(again[a * ds.I + b]).toBe(folds[llms[a] * ds.I + items[b]]);
  });

  it('another seed deals other folds (about 4 cells in 5 move)', () => {
    const other = cellFolds(ds, 5, 2);
    let moved = 0;
    let n = 0;
    for (let c = 0; c < folds.length; c++)
      if (ds.observed[c]) {
        n++;
        moved += other[c] !== folds[c] ? 1 : 0;
      }
    // Independent deals move 80% of cells; ±10 points is over 10 sd at n ≈ 3,780.
    expect(moved / n).toBeGreaterThan(0.7);
    expect(moved / n).toBeLessThan(0.9);
  });

  it('spreads each LLM over the folds (each holds 20% ± 10 points of its ~270 cells, 4 sd)', () => {
    for (let j = 0; j < ds.J; j++) {
      const count = [0, 0, 0, 0, 0];
      let n = 0;
      for (let i = 0; i < ds.I; i++)
        if (ds.observed[j * ds.I + i]) {
          count[folds[j * ds.I + i]]++;
          n++;
        }
      for (const c of count) expect(Math.abs(c / n - 0.2)).toBeLessThan(0.1);
    }
  });

  it('chooses a share of the items by content: the same items under other names and order', () => {
    const keep = contentShare(ds, 0.4, 3);
    // binomial(300, 0.4): mean 120, sd 8.5.
    expect(keep.length).toBeGreaterThan(80);
    expect(keep.length).toBeLessThan(160);
    const { data, items } = renameAndShuffle(ds, 6);
    const again = contentShare(data, 0.4, 3).map((b) => items[b]);
    expect(again.sort((a, b) => a - b)).toEqual(keep);
    expect(contentShare(ds, 0.4, 4)).not.toEqual(keep);
  });
});
