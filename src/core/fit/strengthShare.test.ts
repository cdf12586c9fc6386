import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadDatasetFromPaths } from '../../node/files';
import { subsetDataset } from '../data/subset';
import { renameAndShuffle } from './bootstrap';
import { shutStart } from './branch';
import { fitDataset } from './fit';
import { pose } from './pose';
import { cvRepeats } from './strength';
import { jackknifeLogStrength, STRENGTH_STEP } from './strengthShare';

const DEMO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../public/demo');

describe('the jackknife of log λ over the search folds', () => {
  it('matches a hand computation: three folds on the grid 1, 2, 4', () => {
    // Leave fold A out: B + C = (5, 2, 5) → vertex at λ = 2 (u = ln 2).
    // Leave B out: A + C = (4, 2, 5) → u = ln 2 − (ln 2 / 2)(2.5 − 2)/(2 − 2 + 2.5) = 0.9 ln 2.
    // Leave C out: A + B = (5, 2, 4) → u = 1.1 ln 2.
    // sd = √(2/3 · 0.02) · ln 2 = 0.0800375…
    const j = jackknifeLogStrength({
      lambdas: [1, 2, 4],
      loss: [
        [2, 3, 2],
        [1, 1, 1],
        [2, 2, 3],
      ],
      held: [1, 1, 1],
      draws: 1,
    });
    expect(j.u[0]).toBeCloseTo(Math.LN2, 12);
    expect(j.u[1]).toBeCloseTo(0.9 * Math.LN2, 12);
    expect(j.u[2]).toBeCloseTo(1.1 * Math.LN2, 12);
    expect(j.sd).toBeCloseTo(Math.sqrt((2 / 3) * 0.02) * Math.LN2, 12);
    expect(j.sd).toBeCloseTo(0.0800375, 6);
  });

  it('counts each cell once where the folds come from several draws', () => {
    // The same three leave-one-out vertices, read as the folds of two draws:
    // every cell sits in two folds, so the variance is doubled back.
    const loss = [
      [2, 3, 2],
      [1, 1, 1],
      [2, 2, 3],
    ];
    const one = jackknifeLogStrength({ lambdas: [1, 2, 4], loss, held: [1, 1, 1], draws: 1 });
    const two = jackknifeLogStrength({ lambdas: [1, 2, 4], loss, held: [1, 1, 1], draws: 2 });
    expect(two.u).toEqual(one.u);
    expect(two.sd).toBeCloseTo(Math.sqrt(2 * (2 / 3) * 0.02) * Math.LN2, 12);
  });
});

describe('draws of the folds', () => {
  it('three for the smallest sets, fewer as the cells grow, one from 3,000 cells', () => {
    expect(cvRepeats(1_674)).toBe(3); // the economics demo
    expect(cvRepeats(2_000)).toBe(3);
    expect(cvRepeats(2_001)).toBe(2);
    expect(cvRepeats(3_000)).toBe(2);
    expect(cvRepeats(3_001)).toBe(1);
    expect(cvRepeats(6_210)).toBe(1); // the pooled demo
    expect(cvRepeats(24_000)).toBe(1); // fit.test's 60 × 400
    expect(cvRepeats(0)).toBe(3);
  });
});

describe("λ's share of SE(θ) on the economics demo (18 × 93)", () => {
  it('is the slope of θ between two fits at fixed λ·e^±0.1 times the jackknife sd, added in quadrature', async () => {
    const all = await loadDatasetFromPaths([path.join(DEMO, 'econ-reading.wide.csv')]);
    const items = all.benchmarks.flatMap((b, i) => (b.includes('econ') ? [i] : []));
    const ds = subsetDataset(all, undefined, items);
    const fit = await fitDataset(ds, {});
    const spread = fit.priorSelection!.spread!;
    const lambda = fit.settings.priorStrength!;
    expect(spread.converged).toBe(true);
    expect(spread.step).toBe(STRENGTH_STEP);
    // 1,674 cells: three draws of five folds.
    expect(spread.leaveOneOut).toHaveLength(15);
    expect(spread.sdLogLambda).toBeGreaterThan(0);
    // The shut start is kept here (its folds' own fits predict better); the
    // fits at a given λ start there too, so they reach the same optimum.
    expect(fit.priorSelection!.starts!.find((s) => s.kept)!.start).toBe('shut');
    const posed = pose(ds, fit.settings);
    const start = shutStart(posed, posed.x0);
    const at = (l: number) => fitDataset(ds, { priorStrength: l }, { start });
    const [up, down, fixed] = await Promise.all([
      at(lambda * Math.exp(STRENGTH_STEP)),
      at(lambda * Math.exp(-STRENGTH_STEP)),
      at(lambda),
    ]);
    let largest = 0;
    fit.llms.forEach((l, j) => {
      const slope = (up.llms[j].theta - down.llms[j].theta) / (2 * STRENGTH_STEP);
      const part = Math.abs(slope) * spread.sdLogLambda;
      largest = Math.max(largest, part);
      expect(l.thetaSELambda!).toBeCloseTo(part, 3);
      // The SE at λ is the fixed-λ fit's own (same optimum), λ's part added in quadrature.
      expect(fixed.llms[j].theta).toBeCloseTo(l.theta, 4);
      expect(l.thetaSE ** 2 - fixed.llms[j].thetaSE ** 2).toBeCloseTo(l.thetaSELambda! ** 2, 4);
    });
    expect(largest).toBeGreaterThan(0.005); // not a vanishing share that any answer would pass
    expect(fit.seMethod).toMatch(/λ's share/);
    // The same cells under other names and in another order: the same share per LLM.
    const ren = renameAndShuffle(ds, 3);
    const renamed = await fitDataset(ren.data, {});
    expect(renamed.priorSelection!.spread!.sdLogLambda).toBeCloseTo(spread.sdLogLambda, 10);
    renamed.llms.forEach((l, a) => {
      expect(l.thetaSELambda!).toBeCloseTo(fit.llms[ren.llms[a]].thetaSELambda!, 5);
    });
  }, 240_000);
});
