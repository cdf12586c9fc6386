import { describe, expect, it } from 'vitest';
import { tinyBinaryFit, tinyDataset, tinyFit } from '../core/testing/tiny';
import { gateAt, gateData, iccData, itemInfoData, positionHeatmap, GRID } from './chartData';
import { wrongResponses } from './responses';

// Tolerances: values are recomputed from the same formulas in float64, so they
// agree to round-off; 1e-12 relative leaves room for summation order.
const close = (a: number, b: number) => expect(a).toBeCloseTo(b, 10);

describe('binary chart data', () => {
  it('the ICC of a binary fit is P(correct) vs P(incorrect), with no I_wrong', () => {
    const ds = tinyDataset();
    const fit = tinyBinaryFit();
    // The ICC becomes P(correct) vs P(incorrect).
    const icc = iccData(fit, ds, 1);
    expect(icc.labels).toEqual(['correct', 'incorrect']);
    icc.traces.forEach((row) => close(row[0] + row[1], 1));
    expect(itemInfoData(fit, 1).wrong.every((w) => w === 0)).toBe(true);
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

  it('with the margin gate, points sit at the item margin f(θ) (eq. 8), not θ − b̃', () => {
    const m = gateData({ ...fit, gate: 'margin' }, ds);
    expect(m.form).toBe('margin');
    const it0 = fit.items[0];
    const th = fit.llms[0].theta;
    const key = ['A', 'B', 'C', 'D'].indexOf(it0.key);
    // f = u_key − log Σ_{k≠key} e^{u_k}, u_k = a_k θ + c_k, written out here.
    const u = it0.a!.map((a, k) => a * th + it0.c![k]);
    const want = u[key] - Math.log(u.reduce((s, v, k) => s + (k === key ? 0 : Math.exp(v)), 0));
    close(m.points![0].x, want);
    close(m.points![0].g, gateAt(-1, 0.8, want));
    expect(Math.abs(want - (th - it0.b))).toBeGreaterThan(1e-3);
  });

  it('position heatmaps are LLM × position', () => {
    const h = positionHeatmap(fit, 'delta');
    expect(h.rows).toEqual(['big', 'mid', 'small']);
    expect(h.cols).toEqual(['A', 'B', 'C']);
    expect(h.values[0]).toEqual([0.1, 0, -0.1]);
  });
});
