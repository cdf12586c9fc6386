/**
 * Infit/outfit on a binary matrix against eRm (CML Rasch, person parameters by
 * ML, itemfit()). The estimators differ (eRm: CML items and ML persons; ours:
 * penalised joint MAP), so the check is agreement of rank and size, not
 * equality. Reference numbers: scripts/erm-fixture.ts + scripts/erm-itemfit.R.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { completeDataset } from '../data/complete';
import type { Dataset } from '../data/types';
import { fitDataset } from '../fit/fit';
import { spearman } from '../stats/corr';
import { itemFit } from './itemfit';

interface Fixture {
  source: string;
  items: string[];
  matrix: string[];
  erm: { item: string; infit: number; outfit: number }[];
}

const fx = JSON.parse(
  readFileSync(new URL('./fixtures/erm-itemfit.json', import.meta.url), 'utf8'),
) as Fixture;

function datasetOf(f: Fixture): Dataset {
  const J = f.matrix.length;
  const I = f.items.length;
  const obs = new Float32Array(J * I * 2);
  f.matrix.forEach((row, j) => {
    for (let i = 0; i < I; i++) obs[(j * I + i) * 2 + (row[i] === '1' ? 0 : 1)] = 1;
  });
  return completeDataset(
    obs,
    new Uint8Array(I),
    { J, I, K: 2 },
    {
      llmIds: f.matrix.map((_, j) => `p${j}`),
      itemIds: f.items,
    },
  );
}

const median = (x: number[]) => {
  const s = [...x].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
};

describe(`infit/outfit against eRm (${fx.source})`, () => {
  it('rank correlation ≥ 0.9 and median absolute difference ≤ 0.05', async () => {
    const ds = datasetOf(fx);
    const fit = await fitDataset(ds, { model: '1pl' });
    const ours = itemFit(fit, ds);
    const report: Record<string, number> = {};
    for (const k of ['infit', 'outfit'] as const) {
      const a = ours.map((r) => r[k]);
      const b = fx.erm.map((r) => r[k]);
      report[`${k}Spearman`] = +spearman(a, b).toFixed(4);
      report[`${k}MedianAbsDiff`] = +median(a.map((x, q) => Math.abs(x - b[q]))).toFixed(4);
      report[`${k}MaxAbsDiff`] = +Math.max(...a.map((x, q) => Math.abs(x - b[q]))).toFixed(4);
    }
    console.log('eRm cross-check', JSON.stringify(report));
    expect(report.infitSpearman).toBeGreaterThanOrEqual(0.9);
    expect(report.outfitSpearman).toBeGreaterThanOrEqual(0.9);
    expect(report.infitMedianAbsDiff).toBeLessThanOrEqual(0.05);
    expect(report.outfitMedianAbsDiff).toBeLessThanOrEqual(0.05);
  }, 60_000);
});
