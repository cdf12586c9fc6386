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

  it('splits information into binary and wrong parts that match independent finite-difference information', () => {
    // Log-probabilities straight from the utilities (log-softmax), not via probsAt.
    const logp = (item: NominalItem, x: number): number[] => {
      const u = Array.from(item.a, (a, k) => a * x + item.c[k]);
      const m = Math.max(...u);
      const lse = m + Math.log(u.reduce((s, v) => s + Math.exp(v - m), 0));
      return u.map((v) => v - lse);
    };
    // Five-point central differences: error O(h⁴) ≈ 1e-12 at h = 1e-3.
    const h = 1e-3;
    const d5 = (f: (x: number) => number, t: number) =>
      (f(t - 2 * h) - 8 * f(t - h) + 8 * f(t + h) - f(t + 2 * h)) / (12 * h);
    let maxWrong = 0;
    for (let seed = 1; seed <= 100; seed++) {
      const item = randomItem(seed);
      const K = item.a.length;
      const g = item.key;
      for (const t of [-3, -1, 0, 0.5, 2.5]) {
        const inf = iteminfoAt(item, t);
        const lp = logp(item, t);
        const p = lp.map(Math.exp);
        const P = p[g];
        // Total: E[(d log p_k/dθ)²] over the option.
        let total = 0;
        for (let k = 0; k < K; k++) total += p[k] * d5((x) => logp(item, x)[k], t) ** 2;
        // Binary: the same for the two outcomes right / wrong.
        const lP = (x: number) => logp(item, x)[g];
        const lQ = (x: number) => Math.log1p(-Math.exp(logp(item, x)[g]));
        const binary = P * d5(lP, t) ** 2 + (1 - P) * d5(lQ, t) ** 2;
        // Wrong: (1 − P) × information of which distractor, given a wrong answer (chain rule).
        let wrong = 0;
        for (let k = 0; k < K; k++) {
          if (k === g) continue;
          const q = p[k] / (1 - P);
          wrong += (1 - P) * q * d5((x) => logp(item, x)[k] - lQ(x), t) ** 2;
        }
        const tol = 1e-7 * Math.max(1, total);
        expect(Math.abs(inf.total - total)).toBeLessThan(tol);
        expect(Math.abs(inf.binary - binary)).toBeLessThan(tol);
        expect(Math.abs(inf.wrong - wrong)).toBeLessThan(tol);
        // The split adds up, and is non-negative before the clamp in iteminfoAt.
        expect(Math.abs(binary + wrong - total)).toBeLessThan(tol);
        const raw = inf.total - inf.binary;
        expect(raw).toBeGreaterThanOrEqual(-1e-9 * Math.max(1, inf.total));
        maxWrong = Math.max(maxWrong, wrong);
      }
    }
    // The random items include ones where distractor identity carries real information.
    expect(maxWrong).toBeGreaterThan(0.1);
  });

  it('the margin is the key log-odds against all distractors', () => {
    const item = randomItem(7);
    const p = new Float64Array(item.a.length);
    probsAt(item, 0.3, p);
    expect(margin(item, 0.3)).toBeCloseTo(Math.log(p[item.key] / (1 - p[item.key])), 10);
  });
});
