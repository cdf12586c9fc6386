import { describe, expect, it } from 'vitest';
import { buildCells, type Cells } from '../../model/cells';
import { createRng } from '../../model/rng';
import { simulateNominal } from '../../model/simulate';
import { chunkBytes, planChunks, type ChunkSizing } from './plan';

/** Cells of a small simulated data set, in a shuffled (not item-major) order. */
function shuffledCells(seed: number): Cells {
  const { data } = simulateNominal({ J: 7, I: 40, seed, missing: 0.3 });
  const c = buildCells(data, false);
  const rng = createRng(seed + 1);
  const perm = Array.from({ length: c.n }, (_, q) => q);
  for (let q = c.n - 1; q > 0; q--) {
    const r = rng.int(q + 1);
    [perm[q], perm[r]] = [perm[r], perm[q]];
  }
  const target = new Float32Array(c.target.length);
  perm.forEach((q, r) => target.set(c.target.subarray(q * c.Kmax, (q + 1) * c.Kmax), r * c.Kmax));
  return {
    ...c,
    cellJ: Uint32Array.from(perm, (q) => c.cellJ[q]),
    cellI: Uint32Array.from(perm, (q) => c.cellI[q]),
    correct: Float32Array.from(perm, (q) => c.correct[q]),
    target,
  };
}

describe('planChunks', () => {
  for (const maxBytes of [1 << 20, 2048]) {
    it(`splits cells into whole-item chunks under ${maxBytes} bytes`, () => {
      const cells = shuffledCells(3);
      const s: ChunkSizing = {
        targetWidth: cells.Kmax,
        recordWidth: 2 + 2 * cells.Kmax,
        itemParamWidth: 2 * cells.Kmax,
        itemOutWidth: 2 * cells.Kmax + 3,
        maxBytes,
      };
      const chunks = planChunks(cells, 'target', s);
      if (maxBytes === 2048) expect(chunks.length).toBeGreaterThan(3);
      else expect(chunks.length).toBe(1);
      // Every (LLM, item) cell appears once, with its targets, under its item.
      const seen = new Map<string, number[]>();
      for (let q = 0; q < cells.n; q++) {
        const t = Array.from(cells.target.subarray(q * cells.Kmax, (q + 1) * cells.Kmax));
        seen.set(`${cells.cellJ[q]},${cells.cellI[q]}`, t);
      }
      let next = 0;
      let total = 0;
      for (const ch of chunks) {
        expect(ch.item0).toBe(next);
        next = ch.item1;
        const nItems = ch.item1 - ch.item0;
        expect(chunkBytes(s, cells.J, nItems, ch.nCells)).toBeLessThanOrEqual(maxBytes);
        expect(ch.items[0]).toBe(0);
        expect(ch.items[nItems]).toBe(ch.nCells);
        for (let t = 0; t < nItems; t++) {
          const i = ch.item0 + t;
          expect(ch.items[nItems + 1 + t]).toBe(cells.nOptions[i] | (cells.key[i] << 8));
          for (let r = ch.items[t]; r < ch.items[t + 1]; r++) {
            const key = `${ch.cellJ[r]},${i}`;
            const want = seen.get(key);
            expect(want, key).toBeDefined();
            expect(Array.from(ch.target.subarray(r * cells.Kmax, (r + 1) * cells.Kmax))).toEqual(
              want,
            );
            seen.delete(key);
          }
        }
        // The LLM index lists each cell once, under its own LLM.
        const J = cells.J;
        expect(ch.byLlm[J]).toBe(ch.nCells);
        const listed = new Set<number>();
        for (let j = 0; j < J; j++) {
          for (let p = ch.byLlm[j]; p < ch.byLlm[j + 1]; p++) {
            const r = ch.byLlm[J + 1 + p];
            expect(ch.cellJ[r]).toBe(j);
            listed.add(r);
          }
        }
        expect(listed.size).toBe(ch.nCells);
        total += ch.nCells;
      }
      expect(next).toBe(cells.I);
      expect(total).toBe(cells.n);
      expect(seen.size).toBe(0);
    });
  }

  it('takes the correctness column for binary targets', () => {
    const cells = shuffledCells(4);
    const s = {
      targetWidth: 1,
      recordWidth: 1,
      itemParamWidth: 4,
      itemOutWidth: 5,
      maxBytes: 1 << 20,
    };
    const [ch] = planChunks(cells, 'correct', s);
    expect(ch.target.length).toBe(cells.n);
    const sum = (x: Float32Array) => x.reduce((a, b) => a + b, 0);
    expect(sum(ch.target)).toBeCloseTo(sum(cells.correct), 3);
  });

  it('refuses an item that cannot fit', () => {
    const cells = shuffledCells(5);
    const s = {
      targetWidth: cells.Kmax,
      recordWidth: 1,
      itemParamWidth: 1,
      itemOutWidth: 1,
      maxBytes: 16,
    };
    expect(() => planChunks(cells, 'target', s)).toThrow(/does not fit/);
  });
});
