import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { datasetSummary } from './summary.ts';
import { subsetDataset } from './subset.ts';
import { cell, loadTexts } from '../../../test/support/data/utils.ts';
import { OPTION_LABELS, type Dataset } from './types.ts';
import { writeItemsCsv, writeLongCsv, writeWideCsv } from './write.ts';

interface Spec {
  items: { K: number; key: number; bench: string }[];
  cells: (number[] | null)[][];
}

/** Random data sets: 1-4 models, 1-6 items with 2..10 options, some cells and options missing. */
const specArb: fc.Arbitrary<Spec> = fc
  .tuple(
    fc.integer({ min: 1, max: 4 }),
    fc.array(
      fc.record({
        K: fc.integer({ min: 2, max: 10 }),
        k: fc.nat(),
        bench: fc.constantFrom('', 'x', 'y'),
      }),
      { minLength: 1, maxLength: 6 },
    ),
  )
  .chain(([J, raw]) => {
    const items = raw.map((r) => ({ K: r.K, key: r.k % r.K, bench: r.bench }));
    const cellArb = (K: number) =>
      fc.option(
        fc.array(fc.option(fc.double({ min: 0.001, max: 1, noNaN: true }), { freq: 6 }), {
          minLength: K,
          maxLength: K,
        }),
        { freq: 4 },
      );
    const row = fc.tuple(...items.map((it) => cellArb(it.K)));
    return fc.array(row, { minLength: J, maxLength: J }).map((cells) => ({
      items,
      cells: cells.map((r) =>
        r.map((c) => (c && c.some((v) => v !== null) ? c.map((v) => v ?? NaN) : null)),
      ),
    }));
  })
  .filter((s) => s.cells.some((r) => r.some((c) => c !== null)));

function wideText(s: Spec): string {
  const lines = ['model,item,benchmark,key,n_options,A,B,C,D,E,F,G,H,I,J'];
  s.cells.forEach((row, j) =>
    row.forEach((c, i) => {
      if (!c) return;
      const it = s.items[i];
      const vals = OPTION_LABELS.map((_, k) =>
        k < it.K && !Number.isNaN(c[k]) ? String(c[k]) : '',
      );
      lines.push([`m${j}`, `q${i}`, it.bench, OPTION_LABELS[it.key], it.K, ...vals].join(','));
    }),
  );
  return lines.join('\n') + '\n';
}

function expectSameData(a: Dataset, b: Dataset) {
  expect(b.J).toBe(a.J);
  expect(b.I).toBe(a.I);
  expect(b.Kmax).toBe(a.Kmax);
  expect(b.llmIds).toEqual(a.llmIds);
  expect(b.itemIds).toEqual(a.itemIds);
  expect(b.benchmarks).toEqual(a.benchmarks);
  expect(b.nOptions).toEqual(a.nOptions);
  expect(b.key).toEqual(a.key);
  expect(b.observed).toEqual(a.observed);
  expect(b.obs).toEqual(a.obs);
}

describe('round trips', () => {
  it('wide -> Dataset -> writeWideCsv -> Dataset is identical, for mixed K in 2..10', async () => {
    await fc.assert(
      fc.asyncProperty(specArb, async (spec) => {
        const a = await loadTexts({ 'w.csv': wideText(spec) });
        const b = await loadTexts({ 'again.csv': writeWideCsv(a) });
        expectSameData(a, b);
      }),
      { numRuns: 40 },
    );
  });

  it('covers every option count 2..10 in one file', async () => {
    const spec: Spec = {
      items: Array.from({ length: 9 }, (_, n) => ({
        K: n + 2,
        key: n % (n + 2),
        bench: `b${n % 2}`,
      })),
      cells: [
        Array.from({ length: 9 }, (_, n) => Array.from({ length: n + 2 }, (_, k) => (k + 1) / 10)),
      ],
    };
    const a = await loadTexts({ 'w.csv': wideText(spec) });
    expect(Array.from(a.nOptions)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(a.Kmax).toBe(10);
    expectSameData(a, await loadTexts({ 'again.csv': writeWideCsv(a) }));
    expect(datasetSummary(a).optionCountHistogram).toHaveLength(9);
  });

  it('long + items writers read back to the same Dataset, texts included', async () => {
    const a = await loadTexts({
      'w.csv':
        'model,item,benchmark,key,n_options,A,B,C\nm,q1,x,B,3,.2,.5,.3\nn,q1,x,B,3,.1,.1,.8\nn,q2,y,A,2,.4,.6,\n',
      'items.csv':
        'item,key,n_options,question,option_A,option_B,option_C\nq1,B,3,"Say ""hi"", twice\nplease",a,"b,c",d\nq2,A,2,q,yes,no,\n',
    });
    expect(a.itemTexts?.[0]).toEqual({
      question: 'Say "hi", twice\nplease',
      options: ['a', 'b,c', 'd'],
    });
    const b = await loadTexts({ 'l.csv': writeLongCsv(a), 'i.csv': writeItemsCsv(a) });
    expectSameData(a, b);
    expect(b.itemTexts).toEqual(a.itemTexts);
    expect(b.sources.find((s) => s.format === 'long')?.valueKind).toBe('prob');
  });
});

describe('subsetDataset and datasetSummary', () => {
  const text =
    'model,item,benchmark,key,n_options,A,B,C\n' +
    'm,q1,x,A,2,.9,.1,\nm,q2,y,C,3,.1,.1,.8\nn,q2,y,C,3,.2,.2,.6\nn,q3,y,A,2,.5,.4,\n';

  it('keeps the chosen LLMs and items in the given order', async () => {
    const ds = await loadTexts({ 'w.csv': text });
    const sub = subsetDataset(ds, [1], [2, 0]);
    expect(sub.llmIds).toEqual(['n']);
    expect(sub.itemIds).toEqual(['q3', 'q1']);
    expect(sub.Kmax).toBe(2);
    expect(Array.from(sub.observed)).toEqual([1, 0]);
    expect(cell(sub, 'n', 'q3')).toEqual(cell(ds, 'n', 'q3'));
    expect(Array.from(sub.obs.subarray(2, 4))).toEqual([0, 0]);
    const all = subsetDataset(ds);
    expect(all.obs).toEqual(ds.obs);
    expect(() => subsetDataset(ds, [2])).toThrow(RangeError);
  });

  it('summarises shape, benchmarks, missingness and leakage', async () => {
    const s = datasetSummary(
      await loadTexts({ 'w.csv': text.replace('n,q3,y,A,2,.5,.4', 'n,q3,y,A,2,.5,.3') }),
    );
    expect(s).toMatchObject({ J: 2, I: 3, Kmax: 3, cells: 4 });
    expect(s.optionCountHistogram).toEqual([
      { nOptions: 2, items: 2 },
      { nOptions: 3, items: 1 },
    ]);
    expect(s.benchmarks).toEqual([
      { name: 'x', items: 1 },
      { name: 'y', items: 2 },
    ]);
    expect(s.missingShare).toBeCloseTo(2 / 6, 12);
    expect(s.leakage.cells).toBe(4);
    expect(s.leakage.max).toBeCloseTo(0.2, 6);
    expect(s.leakage.mean).toBeCloseTo(0.05, 6);
    expect(s.leakage.above1pct).toBe(1);
    expect(s.warnings.map((w) => w.code).sort()).toEqual(['leakage', 'renormalised']);
  });
});
