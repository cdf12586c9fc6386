import { describe, expect, it } from 'vitest';
import { buildCells, lazyCells } from './cells';
import { simulateNominal } from './simulate';

describe('lazyCells', () => {
  const { data } = simulateNominal({ J: 5, I: 7, seed: 2, missing: 0.2, concentration: 30 });

  it('gives the counts at once and, on first use, the per-cell arrays buildCells gives', () => {
    for (const hard of [false, true]) {
      const eager = buildCells(data, hard);
      const lazy = lazyCells(data, hard);
      expect([lazy.J, lazy.I, lazy.Kmax, lazy.n]).toEqual([eager.J, eager.I, eager.Kmax, eager.n]);
      expect(lazy.nOptions).toBe(data.nOptions);
      expect(lazy.key).toBe(data.key);
      expect(Array.from(lazy.target)).toEqual(Array.from(eager.target));
      expect(Array.from(lazy.cellJ)).toEqual(Array.from(eager.cellJ));
      expect(Array.from(lazy.cellI)).toEqual(Array.from(eager.cellI));
      expect(Array.from(lazy.correct)).toEqual(Array.from(eager.correct));
      // Built once: the same arrays on every later read.
      expect(lazy.target).toBe(lazy.target);
    }
  });

  it('copies whole by spread and by structured clone (the shard workers receive cells so)', () => {
    const eager = buildCells(data, false);
    for (const copy of [{ ...lazyCells(data, false) }, structuredClone(lazyCells(data, false))]) {
      expect(copy.n).toBe(eager.n);
      expect(Array.from(copy.cellI)).toEqual(Array.from(eager.cellI));
      expect(Array.from(copy.target)).toEqual(Array.from(eager.target));
    }
  });
});
