import { describe, expect, it } from 'vitest';
import { fitDataset } from '../fit/fit';
import { modelFit } from './itemfit';
import { simulateBinary } from './simulate';

const MISFIT = [3, 27, 51, 72, 96];

describe('item fit on simulated 1PL data (300 LLMs × 100 items, one-hot)', () => {
  it('flags the 5 items whose responses ignore θ; the rest have mean MS near 1', async () => {
    const { data } = simulateBinary({ J: 300, I: 100, seed: 7, misfit: MISFIT });
    const fit = await fitDataset(data, { model: '1pl' });
    const { items, llms } = modelFit(fit, data);
    const bad = items.filter((_, i) => MISFIT.includes(i));
    const good = items.filter((_, i) => !MISFIT.includes(i));
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    const report = {
      misfitOutfit: bad.map((r) => +r.outfit.toFixed(3)),
      misfitInfit: bad.map((r) => +r.infit.toFixed(3)),
      misfitZOutfit: bad.map((r) => +r.z_outfit.toFixed(2)),
      restMeanInfit: +mean(good.map((r) => r.infit)).toFixed(4),
      restMeanOutfit: +mean(good.map((r) => r.outfit)).toFixed(4),
      restMaxOutfit: +Math.max(...good.map((r) => r.outfit)).toFixed(3),
      restFlagged: good.filter((r) => r.flag).length,
      llmMeanInfit: +mean(llms.map((r) => r.infit)).toFixed(4),
      llmMeanOutfit: +mean(llms.map((r) => r.outfit)).toFixed(4),
    };
    console.log('item fit check', JSON.stringify(report));
    for (const r of bad) {
      expect(r.outfit).toBeGreaterThan(1.3);
      expect(r.flag).toBe('underfit');
    }
    expect(report.restMeanInfit).toBeGreaterThan(0.9);
    expect(report.restMeanInfit).toBeLessThan(1.1);
    expect(report.restMeanOutfit).toBeGreaterThan(0.9);
    expect(report.restMeanOutfit).toBeLessThan(1.1);
    expect(items.every((r) => r.n === 300)).toBe(true);
  }, 120_000);
});

describe('residuals under soft targets', () => {
  it('a model that reproduces the observed distributions exactly has infit = outfit = 1', async () => {
    const { simulateNominal } = await import('../model/simulate');
    const { fitJsonFromNat } = await import('../eval/testing');
    const sim = simulateNominal({ J: 30, I: 12, seed: 2, model: 'llmnrm' });
    const fit = fitJsonFromNat(sim.data, sim.truth, sim.layout, 'llmnrm');
    const { kind, items, llms } = modelFit(fit, sim.data);
    expect(kind).toBe('option');
    for (const r of [...items, ...llms]) {
      expect(r.infit).toBeCloseTo(1, 4);
      expect(r.outfit).toBeCloseTo(1, 4);
    }
  });
});
