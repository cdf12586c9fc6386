import { describe, expect, it } from 'vitest';
import {
  dominantBandsExact,
  informativeDistractors,
  iteminfoAt,
  margin,
  probsAt,
  thetaGrid,
  type NominalItem,
} from './itemfns';
import { createRng } from './rng';

function randomItem(seed: number): NominalItem {
  const rng = createRng(seed);
  const K = 2 + rng.int(9);
  const a = Array.from({ length: K }, () => 1.5 * rng.normal());
  const c = Array.from({ length: K }, () => rng.normal());
  return { a, c, key: rng.int(K) };
}

describe('item functions', () => {
  it('exact dominance bands agree with a fine brute-force scan of the probabilities', () => {
    const grid = thetaGrid(-4, 4, 8001);
    const p = new Float64Array(10);
    for (let seed = 1; seed <= 300; seed++) {
      const item = randomItem(seed);
      const bands = dominantBandsExact(item, -4, 4);
      expect(bands[0].from).toBe(-4);
      expect(bands[bands.length - 1].to).toBe(4);
      const seen = new Set<number>();
      for (const t of grid) {
        probsAt(item, t, p);
        let best = 0;
        for (let k = 1; k < item.a.length; k++) if (p[k] > p[best]) best = k;
        seen.add(best);
        // Away from a breakpoint the band covering t names the same option.
        const band = bands.find((b) => b.from + 1e-3 < t && t < b.to - 1e-3);
        if (band) expect(band.option).toBe(best);
      }
      // Every option the scan found is in a band (bands narrower than the scan step may add more).
      const inBands = new Set(bands.map((b) => b.option));
      for (const k of seen) expect(inBands.has(k)).toBe(true);
      const wrong = [...inBands].filter((k) => k !== item.key).sort((x, y) => x - y);
      expect(informativeDistractors(item)).toEqual(wrong);
    }
  });

  it('splits information into binary and wrong parts that add up, with I_wrong ≥ 0', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const item = randomItem(seed);
      for (const t of [-3, -1, 0, 0.5, 2.5]) {
        const inf = iteminfoAt(item, t);
        expect(inf.wrong).toBeGreaterThanOrEqual(0);
        expect(inf.binary + inf.wrong).toBeCloseTo(inf.total, 12);
        // Binary information equals (dP/dθ)²/(P(1−P)), checked by finite differences of P.
        const P = (x: number) => {
          const p = new Float64Array(item.a.length);
          probsAt(item, x, p);
          return p[item.key];
        };
        const h = 1e-5;
        const dP = (P(t + h) - P(t - h)) / (2 * h);
        const ib = (dP * dP) / (P(t) * (1 - P(t)));
        expect(Math.abs(inf.binary - ib)).toBeLessThan(1e-6 * Math.max(1, ib));
      }
    }
  });

  it('the margin is the key log-odds against all distractors', () => {
    const item = randomItem(7);
    const p = new Float64Array(item.a.length);
    probsAt(item, 0.3, p);
    expect(margin(item, 0.3)).toBeCloseTo(Math.log(p[item.key] / (1 - p[item.key])), 10);
  });
});
