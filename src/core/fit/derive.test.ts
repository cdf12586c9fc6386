import { describe, expect, it } from 'vitest';
import { binaryInfoAt, informativeDistractors, iteminfoAt } from '../model/itemfns';
import { tinyBinaryFit, tinyDataset, tinyFit } from '../testing/tiny';
import { deriveStats, itemAccuracy, testInformation } from './derive';
import { nominalItemOf } from './info';

// Tolerances: values are recomputed from the same formulas in float64, so they
// agree to round-off; 1e-12 relative leaves room for summation order.
const close = (a: number, b: number) => expect(a).toBeCloseTo(b, 10);

describe('itemAccuracy', () => {
  it('is the share of observed LLMs whose argmax is the key', () => {
    const acc = itemAccuracy(tinyDataset());
    close(acc[0], 1 / 3); // big picks A (key); mid picks B; small picks C
    close(acc[1], 1); // big and mid pick C (key); small is missing
    close(acc[2], 1 / 3); // big picks B (key); mid picks A; small ties -> A (first)
  });
});

describe('deriveStats (nominal)', () => {
  const ds = tinyDataset();
  const fit = tinyFit();
  const d = deriveStats(fit, ds);

  it('averages I_binary and I_wrong over the fitted θ of the LLMs', () => {
    const item = nominalItemOf(fit.items[0]);
    const info = fit.llms.map((l) => iteminfoAt(item, l.theta));
    close(d.items[0].infoBinary, info.reduce((s, x) => s + x.binary, 0) / 3);
    close(d.items[0].infoWrong, info.reduce((s, x) => s + x.wrong, 0) / 3);
    for (const r of d.items) expect(r.infoWrong).toBeGreaterThanOrEqual(0);
  });

  it("counts informative distractors over the fitted LLMs' θ range and reads the key discrimination", () => {
    fit.items.forEach((it, i) => {
      // The LLMs' θ run from −1.2 to 1.2 (the one definition: fit/info.ts informativeOptions).
      expect(d.items[i].informative).toBe(
        informativeDistractors(nominalItemOf(it), -1.2, 1.2).length,
      );
      expect(d.items[i].aKey).toBe(it.a![ds.key[i]]);
    });
    // q1 at θ = −1.2 (the weakest LLM) prefers C (a = −2), a wrong option: informative.
    expect(d.items[0].informative).toBeGreaterThanOrEqual(1);
  });

  it('groups benchmarks in first-seen order', () => {
    expect(d.infoByBenchmark.map((b) => b.benchmark)).toEqual(['alpha', 'beta']);
    close(d.infoByBenchmark[0].infoBinary, (d.items[0].infoBinary + d.items[1].infoBinary) / 2);
    expect(d.infoByBenchmark.map((b) => b.items)).toEqual([2, 1]);
  });

  it('sums item information into test information', () => {
    const grid = [-1, 0, 2];
    const ti = testInformation(fit, ds, grid);
    grid.forEach((t, q) => {
      const sum = fit.items.reduce((s, it) => s + iteminfoAt(nominalItemOf(it), t).total, 0);
      close(ti[q], sum);
    });
  });
});

describe('deriveStats (binary)', () => {
  it('uses the binary information and has no distractor statistics', () => {
    const ds = tinyDataset();
    const fit = tinyBinaryFit();
    const d = deriveStats(fit, ds);
    expect(d.binary).toBe(true);
    for (const b of d.infoByBenchmark) expect(b.informativeDistractors).toBeNaN();
    const it = fit.items[1];
    const bi = { slope: it.slope!, d: it.d!, g: 0, u: 1 };
    close(d.items[1].infoBinary, fit.llms.reduce((s, l) => s + binaryInfoAt(bi, l.theta), 0) / 3);
    expect(d.items[1].infoWrong).toBe(0);
    expect(Number.isNaN(d.items[1].informative)).toBe(true);
  });
});
