import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadDataset, type LoadOptions } from './load.ts';
import { itemHash } from './sample.ts';
import {
  harnessFiles,
  longFiles,
  wideFiles,
  type TextFile,
} from '../../../test/support/data/formats.ts';
import { specArb, type Spec } from '../../../test/support/data/spec.ts';
import { expectDataError, loadTexts } from '../../../test/support/data/utils.ts';
import { DataError, type Dataset } from './types.ts';

const formats: Record<string, (s: Spec) => TextFile[]> = {
  wide: (s) =>
    wideFiles(s, {
      prefix: 'p_',
      kind: 'prob',
      nOptions: true,
      bench: true,
      allTen: false,
      extra: false,
      scale: 1,
      crlf: false,
    }),
  long: (s) => longFiles(s, { kind: 'logprob', shuffle: 3, texts: true, scale: 1, crlf: false }),
  harness: (s) =>
    harnessFiles(s, {
      resps: 'strings',
      respsOnly: false,
      target: 'number',
      args: 'new',
      crlf: false,
    }),
};

/** Cell (j, i) of `ds` as observed flag and values. */
function cellOf(ds: Dataset, model: string, item: string) {
  const c = ds.llmIds.indexOf(model) * ds.I + ds.itemIds.indexOf(item);
  const K = ds.nOptions[ds.itemIds.indexOf(item)];
  return {
    observed: ds.observed[c],
    obs: Array.from(ds.obs.subarray(c * ds.Kmax, c * ds.Kmax + K)),
  };
}

describe('sampling items', () => {
  it('keeps whole items, the same ones in every format, deterministically (property)', async () => {
    let runs = 0;
    let emptySamples = 0;
    await fc.assert(
      fc.asyncProperty(
        specArb,
        fc.constantFrom('wide', 'long', 'harness'),
        fc.double({ min: 0.2, max: 0.95, noNaN: true }),
        fc.integer(),
        async (spec, format, fraction, seed) => {
          runs++;
          const files = formats[format](spec);
          const opts: LoadOptions = { sample: { fraction, seed } };
          const full = await loadDataset(files);
          const want = full.itemIds.filter((id) => itemHash(id, seed) < fraction);
          if (want.length === 0) {
            emptySamples++;
            await expect(loadDataset(files, opts)).rejects.toThrow(DataError);
            return;
          }
          const a = await loadDataset(files, opts);
          const b = await loadDataset(files, opts);
          expect(a.itemIds).toEqual(want);
          expect(b.itemIds).toEqual(a.itemIds);
          expect(b.obs).toEqual(a.obs);
          expect(a.llmIds).toEqual(full.llmIds);
          for (const model of a.llmIds)
            for (const item of a.itemIds)
              expect(cellOf(a, model, item)).toEqual(cellOf(full, model, item));
          const w = a.warnings.find((x) => x.message.startsWith('sampled'));
          expect(w?.message).toContain(`kept ${want.length} of ${full.itemIds.length} items`);
        },
      ),
      { numRuns: 150 },
    );
    console.log(`sampling property cases: ${runs} (${emptySamples} kept no item: DataError)`);
  });

  it('keeps about the fraction asked for and says so', async () => {
    const rows = Array.from({ length: 5000 }, (_, n) => `m,item-${n},A,.5,.5`);
    const text = 'model,item,key,A,B\n' + rows.join('\n') + '\n';
    const ds = await loadTexts({ 'w.csv': text }, { sample: { fraction: 0.1, seed: 42 } });
    expect(ds.I).toBeGreaterThan(430);
    expect(ds.I).toBeLessThan(570);
    const w = ds.warnings.find((x) => x.message.startsWith('sampled'));
    expect(w).toMatchObject({ file: 'w.csv', code: 'other', count: ds.I });
    expect(w?.message).toMatch(/^sampled 10% of items \(seed 42\): kept \d+ of 5000 items/);
    const other = await loadTexts({ 'w.csv': text }, { sample: { fraction: 0.1, seed: 43 } });
    expect(other.itemIds).not.toEqual(ds.itemIds);
  });

  it('keeps the LLMs of skipped rows, so every LLM has the same items', async () => {
    const text = 'model,item,key,A,B\nm,q1,A,.5,.5\nn,q2,A,.5,.5\n';
    const seed = [...Array(100).keys()].find(
      (s) => itemHash('q1', s) < 0.5 && itemHash('q2', s) >= 0.5,
    )!;
    const ds = await loadTexts({ 'w.csv': text }, { sample: { fraction: 0.5, seed } });
    expect(ds.llmIds).toEqual(['m', 'n']);
    expect(ds.itemIds).toEqual(['q1']);
    expect(Array.from(ds.observed)).toEqual([1, 0]);
  });

  it('checks its options; fraction 1 keeps everything without a warning', async () => {
    const files = { 'w.csv': 'model,item,key,A,B\nm,q1,A,.5,.5\n' };
    for (const fraction of [0, -1, 1.5, NaN])
      await expect(loadTexts(files, { sample: { fraction, seed: 1 } })).rejects.toThrow(RangeError);
    await expect(loadTexts(files, { sample: { fraction: 0.5, seed: 1.5 } })).rejects.toThrow(
      RangeError,
    );
    const all = await loadTexts(files, { sample: { fraction: 1, seed: 1 } });
    expect(all.warnings.filter((w) => w.message.startsWith('sampled'))).toEqual([]);
    const seed = [...Array(100).keys()].find((s) => itemHash('q1', s) >= 0.01)!;
    await expectDataError(loadTexts(files, { sample: { fraction: 0.01, seed } }), {
      file: 'w.csv',
      message: /sampling 1% of items kept none of the 1 items/,
    });
  });
});
