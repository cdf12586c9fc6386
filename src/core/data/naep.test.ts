import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDataset } from './load.ts';
import { loadDatasetFromPaths } from '../../node/files.ts';
import { datasetSummary } from './summary.ts';
import { cell, demoDir } from '../../../test/support/data/utils.ts';
import type { Dataset } from './types.ts';

const at = (f: string) => path.join(demoDir, f);

function expectNaepShape(ds: Dataset, I: number) {
  expect(ds.J).toBe(18);
  expect(ds.I).toBe(I);
  expect(ds.Kmax).toBe(4);
  expect(ds.nOptions.every((k) => k === 4)).toBe(true);
  expect(ds.observed.every((o) => o === 1)).toBe(true);
  expect(ds.obs.length).toBe(18 * I * 4);
  for (let c = 0; c < ds.J * ds.I; c++) {
    const s = ds.obs[c * 4] + ds.obs[c * 4 + 1] + ds.obs[c * 4 + 2] + ds.obs[c * 4 + 3];
    expect(Math.abs(s - 1)).toBeLessThan(1e-5);
  }
}

describe('NAEP shared data', () => {
  it('loads the wide file as probabilities', async () => {
    const ds = await loadDatasetFromPaths([at('econ-reading.wide.csv')]);
    expectNaepShape(ds, 345);
    expect(ds.sources[0]).toMatchObject({ format: 'wide', valueKind: 'prob', rows: 6210 });
    expect(ds.llmIds[0]).toBe('Llama-3.1-70B');
    expect(cell(ds, 'Llama-3.1-70B', 'NAEP-E407201')[0]).toBeCloseTo(0.99518707, 7);
    const s = datasetSummary(ds);
    expect(s.benchmarks.reduce((t, b) => t + b.items, 0)).toBe(345);
    expect(s.benchmarks.find((b) => b.name === 'naep-economics')?.items).toBe(93);
    expect(s.missingShare).toBe(0);
    expect(ds.warnings).toEqual([]);
    expect(ds.itemTexts).toBeUndefined();
  });

  it('long-logprob + items gives the same cells as wide within 1e-5', async () => {
    const wide = await loadDatasetFromPaths([at('econ-reading.wide.csv')]);
    const long = await loadDatasetFromPaths([
      at('econ-reading.long-logprob.csv'),
      at('econ-reading.items.csv'),
    ]);
    expectNaepShape(long, 345);
    const src = long.sources.find((s) => s.format === 'long');
    expect(src).toMatchObject({ valueKind: 'logprob', rows: 24840 });
    expect(long.itemTexts?.length).toBe(345);
    let maxDiff = 0;
    for (const model of wide.llmIds)
      for (const item of wide.itemIds) {
        const a = cell(wide, model, item);
        const b = cell(long, model, item);
        for (let k = 0; k < 4; k++) maxDiff = Math.max(maxDiff, Math.abs(a[k] - b[k]));
      }
    expect(maxDiff).toBeLessThan(1e-5);
    for (const item of wide.itemIds)
      expect(long.key[long.itemIds.indexOf(item)]).toBe(wide.key[wide.itemIds.indexOf(item)]);
  });

  it('loads the 4-orders wide + items file, with texts spanning lines', async () => {
    const ds = await loadDatasetFromPaths([
      at('econ-reading-4orders.wide.csv'),
      at('econ-reading-4orders.items.csv'),
    ]);
    expectNaepShape(ds, 1380);
    expect(ds.itemIds.slice(0, 2)).toEqual(['NAEP-E407201#p0', 'NAEP-E407201#p1']);
    expect(ds.key[1]).toBe(3); // key D in the second cyclic order
    expect(ds.itemTexts?.[0]?.options[0]).toBe(
      "Country A's economic growth rate will be higher than Country B's.",
    );
    expect(ds.itemTexts?.every((t) => t !== null && t.options.length === 4)).toBe(true);
  });

  it('gives identical results from small Blob chunks, big text chunks and disk', async () => {
    const files = ['econ-reading.long-logprob.csv', 'econ-reading.items.csv'];
    const disk = await loadDatasetFromPaths(files.map(at));
    const blobs = await loadDataset(
      files.map((f) => ({ name: f, blob: new Blob([readFileSync(at(f))]) })),
      { chunkSize: 4093 },
    );
    const texts = await loadDataset(
      files.map((f) => ({ name: f, text: readFileSync(at(f), 'utf8') })),
    );
    expect(blobs.obs).toEqual(disk.obs);
    expect(texts.obs).toEqual(disk.obs);
    expect(blobs.itemTexts).toEqual(disk.itemTexts);
  });
});
