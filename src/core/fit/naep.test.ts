import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDatasetFromPaths } from '../../node/files';
import type { Dataset } from '../data/types';
import { createFusedEngine } from '../engines/fused';
import { createRng } from '../model/rng';
import { fitDataset } from './fit';
import { makeObjective, pose } from './pose';

const NAEP = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../public/demo');
const f = (name: string) => path.join(NAEP, name);

describe('real NAEP data (18 LLMs × 345 items)', () => {
  let wide: Dataset;
  let long: Dataset;
  beforeAll(async () => {
    wide = await loadDatasetFromPaths([f('econ-reading.wide.csv')]);
    long = await loadDatasetFromPaths([
      f('econ-reading.items.csv'),
      f('econ-reading.long-logprob.csv'),
    ]);
  });

  it('gives the same objective for the same cells in wide and long-logprob form, at the same parameters', async () => {
    expect(long.llmIds).toEqual(wide.llmIds);
    expect(long.itemIds).toEqual(wide.itemIds);
    for (const model of ['llmnrm', '2pl'] as const) {
      const pw = pose(wide, { model, mode: 'default' });
      const pl = pose(long, { model, mode: 'default' });
      const rng = createRng(3);
      const x = Float64Array.from(pw.x0, (v) => v + 0.1 * rng.normal());
      const ow = makeObjective(pw, createFusedEngine(pw.problem));
      const ol = makeObjective(pl, createFusedEngine(pl.problem));
      const vw = await ow.f(x, null);
      const vl = await ol.f(x, null);
      // The files store the same cells to ~8 significant digits (softmax of the
      // log-probs vs the stored probabilities); 1e-5 relative covers that.
      expect(Math.abs(vw - vl) / vw).toBeLessThan(1e-5);
    }
  });

  it('fits every NAEP file to finite parameters, with θ ordered like accuracy', async () => {
    const fourOrders = await loadDatasetFromPaths([
      f('econ-reading-4orders.items.csv'),
      f('econ-reading-4orders.wide.csv'),
    ]);
    expect(fourOrders.I).toBe(1380);
    for (const ds of [wide, long, fourOrders]) {
      const fit = await fitDataset(ds, { model: 'llmnrm', steps: 600 });
      expect(Number.isFinite(fit.objective)).toBe(true);
      expect(fit.items.every((it) => it.a!.every(Number.isFinite) && Number.isFinite(it.b))).toBe(
        true,
      );
      const best = fit.llms.reduce((a, b) => (b.theta > a.theta ? b : a));
      const worst = fit.llms.reduce((a, b) => (b.theta < a.theta ? b : a));
      expect(best.accuracy).toBeGreaterThan(worst.accuracy);
    }
  }, 300_000);
});
