import { describe, expect, it } from 'vitest';
import { subsetDataset } from '../data/subset';
import { allBtilde, nominalProbs } from '../model/nominal';
import { simulateNominal } from '../model/simulate';
import { nominalFlags } from '../model/types';
import { meanSdSample, summariseMetrics } from './common';
import { cellFolds, foldCells, hideCells, unitFolds } from './folds';
import { binaryScores, cellScores, evaluateCells, MetricAccumulator } from './metrics';
import { distractorShares, predictorFromFit, type CellPredictor } from './predict';
import { emptyFitJson, fitJsonFromNat, tinyDataset } from './testing';

describe('cell metrics on hand-made predictions', () => {
  it('a right prediction: option argmax agrees, key predicted', () => {
    const s = cellScores([0.7, 0.2, 0.1], [0.5, 0.3, 0.2], 3, 0);
    expect(s.optionAcc).toBe(1);
    expect(s.optionLogLoss).toBeCloseTo(
      -(0.7 * Math.log(0.5) + 0.2 * Math.log(0.3) + 0.1 * Math.log(0.2)),
      12,
    );
    expect(s.binaryAcc).toBe(1);
    expect(s.binaryLogLoss).toBeCloseTo(Math.log(2), 12);
    expect(s.binaryBrier).toBeCloseTo(0.25, 12);
  });

  it('a wrong prediction: observed argmax is a distractor the model ranks second', () => {
    const s = cellScores([0.1, 0.8, 0.1, 0], [0.6, 0.3, 0.1, 0], 4, 0);
    expect(s.optionAcc).toBe(0);
    expect(s.optionLogLoss).toBeCloseTo(
      -(0.1 * Math.log(0.6) + 0.8 * Math.log(0.3) + 0.1 * Math.log(0.1)),
      12,
    );
    expect(s.binaryAcc).toBe(0); // y = 0, P(key) = 0.6 predicts correct
    expect(s.binaryLogLoss).toBeCloseTo(-Math.log(0.4), 12);
    expect(s.binaryBrier).toBeCloseTo(0.36, 12);
  });

  it('zero predicted mass is clamped, zero observed mass costs nothing', () => {
    expect(cellScores([1, 0], [0, 1], 2, 0).optionLogLoss).toBeCloseTo(-Math.log(1e-15), 6);
    expect(cellScores([0, 1], [0, 1], 2, 0).optionLogLoss).toBeCloseTo(0, 12);
    expect(binaryScores(1, 1).binaryLogLoss).toBeLessThan(1e-14);
  });

  it('evaluateCells averages over the listed cells; summaries are mean and sample sd', () => {
    const ds = tinyDataset(
      [
        { id: 'q1', K: 3, key: 0 },
        { id: 'q2', K: 2, key: 1 },
      ],
      [
        ['m1', 'q1', [0.7, 0.2, 0.1]],
        ['m1', 'q2', [0.9, 0.1]],
        ['m2', 'q1', [0.1, 0.8, 0.1]],
      ],
    );
    const uniform: CellPredictor = {
      probs: (_j, i, out) => out.fill(1 / ds.nOptions[i], 0, ds.nOptions[i]),
      pKey: (_j, i) => 1 / ds.nOptions[i],
    };
    const m = evaluateCells(uniform, ds, [0, 1, 2]);
    expect(m.n).toBe(3);
    expect(m.optionLogLoss).toBeCloseTo((Math.log(3) + Math.log(2) + Math.log(3)) / 3, 6); // float32 observations
    // Binary: y = 1, 0, 0; P = 1/3, 1/2, 1/3 → acc 0, 0(P ≥ ½ says correct), 1.
    expect(m.binaryAcc).toBeCloseTo(1 / 3, 12);
    expect(m.binaryBrier).toBeCloseTo(((2 / 3) ** 2 + 0.25 + 1 / 9) / 3, 12);
    const acc = new MetricAccumulator();
    expect(Number.isNaN(acc.result().optionAcc)).toBe(true);
    expect(meanSdSample([1, 2, 3, NaN])).toEqual({ mean: 2, sd: 1, n: 3 });
    expect(summariseMetrics([{ x: 1 }, { x: 3 }], ['x'])).toEqual({ x_mean: 2, x_sd: Math.SQRT2 });
  });
});

describe('predictors', () => {
  it('binary models spread 1 − P(key) over distractors by add-one-smoothed training argmax counts', () => {
    const ds = tinyDataset(
      [{ id: 'q', K: 4, key: 0 }],
      [
        ['m1', 'q', [0.1, 0.6, 0.2, 0.1]],
        ['m2', 'q', [0.1, 0.5, 0.3, 0.1]],
        ['m3', 'q', [0.2, 0.2, 0.5, 0.1]],
        ['m4', 'q', [0.9, 0.05, 0.03, 0.02]],
      ],
    );
    const w = distractorShares(ds);
    // counts: B 2, C 1, D 0 → smoothed 3, 2, 1 over 6.
    expect(Array.from(w)).toEqual([0, 0.5, 2 / 6, 1 / 6]);
    const fit = emptyFitJson('2pl', 4);
    fit.llms = ds.llmIds.map((id, j) => ({
      id,
      theta: j - 1.5,
      thetaSE: 0,
      s: 1,
      delta: [],
      rho: [],
      accuracy: 0,
      nObserved: 1,
    }));
    fit.items = [
      { id: 'q', benchmark: 'b', key: 'A', nOptions: 4, b: 0, slope: 1.5, d: 0.2, g: 0, u: 1 },
    ];
    const pred = predictorFromFit(fit, ds, { distractors: w });
    const out = new Float64Array(4);
    pred.probs(0, 0, out);
    const P = 1 / (1 + Math.exp(-(1.5 * -1.5 + 0.2)));
    expect(pred.pKey(0, 0)).toBeCloseTo(P, 12);
    expect(out[0]).toBeCloseTo(P, 12);
    expect(out[1]).toBeCloseTo((1 - P) * 0.5, 12);
    expect(out.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 12);
  });

  it('natFromFit aligns a fit.json with a data set by id (the truth reproduces nominalProbs)', () => {
    const { data, truth, layout: L } = simulateNominal({ J: 6, I: 12, seed: 3 });
    const fit = fitJsonFromNat(data, truth, L);
    // A reordered, smaller view of the same data.
    const view = subsetDataset(data, [5, 2, 0], [11, 3, 7, 0]);
    const pred = predictorFromFit(fit, view);
    const bt = allBtilde(truth, L, data.nOptions, data.key);
    const want = new Float64Array(L.Kmax);
    const got = new Float64Array(L.Kmax);
    [5, 2, 0].forEach((j, a) =>
      [11, 3, 7, 0].forEach((i, b) => {
        const K = data.nOptions[i];
        nominalProbs(truth, L, nominalFlags('llmnrm', 'eq10'), j, i, K, data.key[i], bt[i], want);
        pred.probs(a, b, got);
        for (let k = 0; k < K; k++) expect(got[k]).toBeCloseTo(want[k], 12);
        expect(pred.pKey(a, b)).toBeCloseTo(want[data.key[i]], 12);
      }),
    );
  });
});

describe('folds', () => {
  const { data } = simulateNominal({ J: 7, I: 13, seed: 4, missing: 0.2 });

  it('cell folds partition the observed cells exactly, balanced and seeded', () => {
    const fold = cellFolds(data, 5, 11);
    const seen = new Set<number>();
    const sizes: number[] = [];
    for (let f = 0; f < 5; f++) {
      const cells = foldCells(fold, f);
      sizes.push(cells.length);
      for (const c of cells) {
        expect(data.observed[c]).toBe(1);
        expect(seen.has(c)).toBe(false);
        seen.add(c);
      }
    }
    const nObs = data.observed.reduce((s, o) => s + o, 0);
    expect(seen.size).toBe(nObs);
    for (let c = 0; c < fold.length; c++) if (!data.observed[c]) expect(fold[c]).toBe(-1);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    expect(Array.from(cellFolds(data, 5, 11))).toEqual(Array.from(fold));
    expect(Array.from(cellFolds(data, 5, 12))).not.toEqual(Array.from(fold));
  });

  it('hideCells removes exactly the fold from a copy', () => {
    const fold = cellFolds(data, 3, 1);
    const train = hideCells(data, (c) => fold[c] === 0);
    for (let c = 0; c < fold.length; c++) {
      expect(train.observed[c]).toBe(fold[c] > 0 ? 1 : 0);
      if (fold[c] === 0) expect(train.obs[c * data.Kmax]).toBe(0);
    }
    expect(data.observed.reduce((s, o) => s + o, 0)).toBeGreaterThan(
      train.observed.reduce((s, o) => s + o, 0),
    );
  });

  it('unit folds deal every LLM to one fold', () => {
    const f = unitFolds(18, 5, 2);
    const counts = [0, 0, 0, 0, 0];
    f.forEach((x) => counts[x]++);
    expect(counts.sort()).toEqual([3, 3, 4, 4, 4]);
    expect(() => unitFolds(3, 5, 1)).toThrow(RangeError);
  });
});
