import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDatasetFromPaths } from '../../node/files';
import type { Dataset } from '../data/types';
import { compressionCurve } from './compress';
import { heldOutScoring } from './testing';

const NAEP = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../public/demo/econ-reading.wide.csv',
);

// Fits are capped at 600 steps to keep this file near 30 s on two cores; the
// figures at the default 2,500 steps are in the bank module's report (held-out
// Spearman 0.969 from every item, 0.953 from a 41-item CAT).
describe('banks on the real NAEP data (18 LLMs × 345 items), 5 folds over LLMs', () => {
  let ds: Dataset;
  beforeAll(async () => {
    ds = await loadDatasetFromPaths([NAEP]);
  });

  it('ranks held-out LLMs like the all-LLM fit, from every bank item and from 41 adaptive items', async () => {
    const r = await heldOutScoring(ds, { fitSettings: { steps: 600 }, catItems: 41 });
    console.log('NAEP held-out Spearman', { score: r.spearmanScore, cat41: r.spearmanCat });
    expect(r.rows).toHaveLength(18);
    expect(r.spearmanScore).toBeGreaterThan(0.9);
    expect(r.spearmanCat).toBeGreaterThan(0.85);
  });

  it('compression: τ with the full-bank ranking grows with the item budget', async () => {
    const progress: number[] = [];
    const r = await compressionCurve(ds, {
      fitSettings: { steps: 600 },
      budgets: [5, 20, 41],
      onProgress: (p) => progress.push(p.done),
    });
    console.table(r.rows);
    expect(r.rows).toHaveLength(9);
    expect(progress.at(-1)).toBe(3 * (5 + 18));
    const tau = (model: string, k: number) =>
      r.rows.find((x) => x.model === model && x.k === k)!.tau_pooled;
    for (const model of ['llmnrm', 'nrm-soft', '2pl'])
      expect(tau(model, 41)).toBeGreaterThan(tau(model, 5));
    expect(tau('llmnrm', 41)).toBeGreaterThan(0.8);
  });

  it('compression can be cancelled', async () => {
    const ac = new AbortController();
    const run = compressionCurve(ds, {
      signal: ac.signal,
      onProgress: (p) => p.fit && p.fit.step > 5 && ac.abort(),
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
  });
});
