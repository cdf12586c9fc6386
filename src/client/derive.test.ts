import { describe, expect, it } from 'vitest';
import { binaryInfoAt, informativeDistractors, iteminfoAt } from '../core/model/itemfns';
import { gateAt, gateData, iccData, itemInfoData, positionHeatmap, GRID } from './chartData';
import { deriveStats, itemAccuracy, nominalItem, testInformation } from './derive';
import { wrongResponses } from './responses';
import { tinyBinaryFit, tinyDataset, tinyFit } from './testData';

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
    const item = nominalItem(fit.items[0], 0);
    const info = fit.llms.map((l) => iteminfoAt(item, l.theta));
    close(d.items[0].infoBinary, info.reduce((s, x) => s + x.binary, 0) / 3);
    close(d.items[0].infoWrong, info.reduce((s, x) => s + x.wrong, 0) / 3);
    for (const r of d.items) expect(r.infoWrong).toBeGreaterThanOrEqual(0);
  });

  it('counts informative distractors and reads the key discrimination', () => {
    fit.items.forEach((it, i) => {
      expect(d.items[i].informative).toBe(
        informativeDistractors(nominalItem(it, ds.key[i])).length,
      );
      expect(d.items[i].aKey).toBe(it.a![ds.key[i]]);
    });
    // q1 at θ = −4 prefers C (a = −2), a wrong option: informative.
    expect(d.items[0].informative).toBeGreaterThanOrEqual(1);
  });

  it('groups benchmarks in first-seen order', () => {
    expect(d.infoByBenchmark.map((b) => b.benchmark)).toEqual(['alpha', 'beta']);
    close(d.infoByBenchmark[0].binary, (d.items[0].infoBinary + d.items[1].infoBinary) / 2);
    expect(d.distractorsByBenchmark.map((b) => b.items)).toEqual([2, 1]);
  });

  it('sums item information into test information', () => {
    const grid = [-1, 0, 2];
    const ti = testInformation(fit, ds, grid);
    grid.forEach((t, q) => {
      const sum = fit.items.reduce(
        (s, it, i) => s + iteminfoAt(nominalItem(it, ds.key[i]), t).total,
        0,
      );
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
    expect(d.distractorsByBenchmark).toEqual([]);
    const it = fit.items[1];
    const bi = { slope: it.slope!, d: it.d!, g: 0, u: 1 };
    close(d.items[1].infoBinary, fit.llms.reduce((s, l) => s + binaryInfoAt(bi, l.theta), 0) / 3);
    expect(d.items[1].infoWrong).toBe(0);
    expect(Number.isNaN(d.items[1].informative)).toBe(true);
    // The ICC becomes P(correct) vs P(incorrect).
    const icc = iccData(fit, ds, 1);
    expect(icc.labels).toEqual(['correct', 'incorrect']);
    icc.traces.forEach((row) => close(row[0] + row[1], 1));
    expect(itemInfoData(fit, ds, 1).wrong.every((w) => w === 0)).toBe(true);
  });
});

describe('wrongResponses', () => {
  it('lists the observed items whose argmax is not the key', () => {
    const ds = tinyDataset();
    expect(wrongResponses(ds, 0)).toEqual([]);
    const mid = wrongResponses(ds, 1);
    expect(mid.map((r) => [r.id, r.key, r.answer])).toEqual([
      ['q1', 'A', 'B'],
      ['q3', 'B', 'A'],
    ]);
    expect(mid[0].probs[1]).toBeCloseTo(0.7, 6); // stored as float32
    // small: q1 wrong, q2 missing (not listed), q3 a tie resolved to A (wrong).
    expect(wrongResponses(ds, 2).map((r) => r.id)).toEqual(['q1', 'q3']);
  });
});

describe('chart data', () => {
  const ds = tinyDataset();
  const fit = tinyFit();

  it('ICC traces are distributions and carry observed LLMs only', () => {
    const icc = iccData(fit, ds, 1);
    expect(icc.traces).toHaveLength(GRID.length);
    icc.traces.forEach((row) =>
      close(
        row.reduce((s, p) => s + p, 0),
        1,
      ),
    );
    expect(icc.llms!.map((l) => l.id)).toEqual(['big', 'mid']);
    expect(icc.key).toBe(2);
  });

  it('gate points sit at θ − b̃ on the gate curve, at most `max`', () => {
    const all = gateData(fit, ds);
    expect(all.points).toHaveLength(8);
    const p = all.points![0];
    close(p.x, fit.llms[0].theta - fit.items[0].b);
    close(p.g, gateAt(-1, 0.8, p.x));
    expect(gateData(fit, ds, 3).points!.length).toBeLessThanOrEqual(3);
  });

  it('position heatmaps are LLM × position', () => {
    const h = positionHeatmap(fit, 'delta');
    expect(h.rows).toEqual(['big', 'mid', 'small']);
    expect(h.cols).toEqual(['A', 'B', 'C']);
    expect(h.values[0]).toEqual([0.1, 0, -0.1]);
  });
});
