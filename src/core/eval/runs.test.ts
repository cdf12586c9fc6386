import { describe, expect, it } from 'vitest';
import { fitDataset } from '../fit/fit';
import { simulateNominal } from '../model/simulate';
import { calibrationCurve } from './calibrate';
import type { EvalProgress } from './common';
import { crossValidate } from './cv';
import { cellFolds, foldCells } from './folds';
import { infoByBenchmark } from './info';
import { evaluateCells } from './metrics';
import { predictorFromFit } from './predict';
import { CV_SUMMARY_COLUMNS, fitJsonFromNat } from './testing';
import { wrongOnly } from './wrong';

// Small fits: loose tolerance and a step cap keep each file well under 30 s on 2 cores.
const FAST = { tol: 1e-6, steps: 800 };

describe('held-out cross-validation on data simulated from LLM-NRM', () => {
  const { data, truth, layout } = simulateNominal({ J: 24, I: 60, seed: 31, concentration: 150 });

  it('the true model family predicts held-out cells better than a wrong one; the truth better still', async () => {
    const progress: EvalProgress[] = [];
    const r = await crossValidate(data, {
      models: ['llmnrm', '1pl'],
      folds: 3,
      seed: 2,
      fitSettings: FAST,
      onProgress: (p) => progress.push(p),
    });
    expect(r.perFold.length).toBe(6);
    expect(r.summary.map((s) => s.model)).toEqual(['llmnrm', '1pl']);
    expect(Object.keys(r.summary[0])).toEqual(CV_SUMMARY_COLUMNS);
    const [nrm, onepl] = r.summary as Record<string, number>[];
    console.log('simulated CV', JSON.stringify(r.summary));
    expect(nrm.optionLogLoss_mean).toBeLessThan(onepl.optionLogLoss_mean);
    expect(nrm.optionAcc_mean).toBeGreaterThan(onepl.optionAcc_mean);
    expect(nrm.binaryLogLoss_mean).toBeLessThan(onepl.binaryLogLoss_mean);
    // Every test cell is scored once per model.
    const nObs = data.observed.reduce((s, o) => s + o, 0);
    expect(r.perFold.filter((f) => f.model === 'llmnrm').reduce((s, f) => s + f.n, 0)).toBe(nObs);
    expect(progress.at(-1)).toMatchObject({ done: 6, total: 6, stage: 'done' });
    expect(progress.some((p) => p.fit !== undefined)).toBe(true);
    // The true parameters on fold 0's cells beat the fitted model there.
    const test = foldCells(cellFolds(data, 3, 2), 0);
    const oracle = evaluateCells(
      predictorFromFit(fitJsonFromNat(data, truth, layout), data),
      data,
      test,
    );
    const fitted = r.perFold.find((f) => f.model === 'llmnrm' && f.fold === 0)!;
    expect(oracle.optionLogLoss).toBeLessThan(fitted.optionLogLoss);
  });

  it('cancelling rejects with AbortError', async () => {
    const ac = new AbortController();
    const p = crossValidate(data, {
      models: ['llmnrm'],
      folds: 2,
      signal: ac.signal,
      onProgress: (q) => q.fit && q.fit.step > 3 && ac.abort(),
    });
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('wrong answers alone, information by benchmark, calibration with fewer LLMs', () => {
  const { data } = simulateNominal({ J: 20, I: 80, seed: 41, concentration: 150 });

  it('θ from correctness only and from wrong answers only both track the full-information θ', async () => {
    const r = await wrongOnly(data, {
      folds: 4,
      seed: 3,
      channels: ['binary', 'wrong', 'option'],
      fitSettings: FAST,
    });
    console.log('simulated Table 3', JSON.stringify(r.rows));
    expect(r.rows.map((x) => x.scenario)).toEqual(['binary', 'wrong', 'option']);
    expect(r.llms.length).toBe(20);
    expect(new Set(r.llms.map((l) => l.llm)).size).toBe(20);
    for (const row of r.rows) {
      expect(row.folds).toBe(4);
      expect(row.spearman_pooled).toBeGreaterThan(0.6);
    }
    const opt = r.rows.find((x) => x.scenario === 'option')!;
    expect(opt.spearman_pooled).toBeGreaterThan(0.9);
  });

  it('information by benchmark: means of the item rows, an "all" row, positive gain', async () => {
    const fit = await fitDataset(data, { model: 'llmnrm', ...FAST });
    const rows = infoByBenchmark(fit);
    expect(rows.map((r) => r.benchmark)).toEqual(['bench-0', 'bench-1', 'bench-2', 'all']);
    expect(rows.slice(0, 3).reduce((s, r) => s + r.items, 0)).toBe(80);
    const all = rows[3];
    const weighted = rows.slice(0, 3).reduce((s, r) => s + r.infoWrong * r.items, 0) / 80;
    expect(all.infoWrong).toBeCloseTo(weighted, 10);
    expect(all.gainPct).toBeCloseTo((100 * all.infoWrong) / all.infoBinary, 10);
    expect(all.gainPct).toBeGreaterThan(0);
    expect(all.informativeDistractors).toBeGreaterThan(0);
    const bin = infoByBenchmark(await fitDataset(data, { model: '2pl', ...FAST }));
    expect(bin[3].infoWrong).toBe(0);
    expect(Number.isNaN(bin[3].informativeDistractors)).toBe(true);
  });

  it('calibration curve: held-out correctness log-loss per model and fleet size', async () => {
    const r = await calibrationCurve(data, {
      models: ['llmnrm', '2pl'],
      sizes: [4, 8, Infinity],
      draws: 2,
      seed: 5,
      fitSettings: FAST,
    });
    console.log('simulated Fig 3b', JSON.stringify(r.rows));
    expect(r.rows.map((x) => [x.model, x.sizeLabel])).toEqual([
      ['llmnrm', '4'],
      ['llmnrm', '8'],
      ['llmnrm', 'all (15)'],
      ['2pl', '4'],
      ['2pl', '8'],
      ['2pl', 'all (15)'],
    ]);
    for (const row of r.rows) {
      expect(row.draws).toBe(2);
      expect(row.binaryLogLoss_mean as number).toBeGreaterThan(0);
      expect(Number.isFinite(row.binaryLogLoss_mean)).toBe(true);
      // A binary bank from 4 LLMs can be worse than a coin; LLM-NRM's is not.
      if (row.model === 'llmnrm')
        expect(row.binaryLogLoss_mean as number).toBeLessThan(Math.log(2));
    }
    expect(r.perDraw.every((d) => d.nHeldOut === 5 && d.n > 0)).toBe(true);
    const ll = (m: string, s: number) =>
      r.rows.find((x) => x.model === m && x.size === s)!.binaryLogLoss_mean as number;
    expect(ll('llmnrm', 15)).toBeLessThan(ll('2pl', 4));
  });
});
