import { describe, expect, it } from 'vitest';
import { estimateLoad, loadBytes, type LoadEstimate } from './estimate.ts';
import { loadDataset, type LoadOptions } from './load.ts';
import { shuffle } from '../../../test/support/data/formats.ts';
import { OPTION_LABELS, type Dataset } from './types.ts';

const HEAD = 64 * 1024;
const L = OPTION_LABELS;

/** Deterministic pseudo-random numbers for the generated files. */
function rng(seed: number) {
  let s = seed;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

interface Gen {
  J: number;
  I: number;
  /** Share of (model, item) cells present. */
  density?: number;
  order: 'model' | 'item' | 'shuffled';
}

/** Cells of a generated data set in the requested order, with K in 2..5 and random values. */
function cells(g: Gen): { m: string; item: string; K: number; key: number; p: number[] }[] {
  const r = rng(g.J * 7919 + g.I);
  const out = [];
  for (let j = 0; j < g.J; j++)
    for (let i = 0; i < g.I; i++) {
      if (r() >= (g.density ?? 1)) continue;
      const K = 2 + (i % 4);
      const p = Array.from({ length: K }, () => Number((r() * 0.99 + 0.001).toPrecision(6)));
      out.push({ m: `model-${j}`, item: `bench/item-${i}`, K, key: i % K, p });
    }
  if (g.order === 'item')
    out.sort((a, b) => a.item.localeCompare(b.item) || a.m.localeCompare(b.m));
  return g.order === 'shuffled' ? shuffle(out, 12345) : out;
}

function wideCsv(g: Gen): string {
  const rows = cells(g).map((c) =>
    [c.m, c.item, L[c.key], c.K, ...L.slice(0, 5).map((_, k) => c.p[k] ?? '')].join(','),
  );
  return `model,item,key,n_options,A,B,C,D,E\n${rows.join('\n')}\n`;
}

function longCsv(g: Gen): { long: string; items: string } {
  const cs = cells(g);
  const rows = cs.flatMap((c) => c.p.map((v, k) => `${c.m},${c.item},${L[k]},${Math.log(v)}`));
  const items = new Map(cs.map((c) => [c.item, `${c.item},${L[c.key]},${c.K}`]));
  return {
    long: `model,item,option,logprob\n${(g.order === 'shuffled' ? shuffle(rows, 9) : rows).join('\n')}\n`,
    items: `item,key,n_options\n${[...items.values()].join('\n')}\n`,
  };
}

function harnessLog(n: number): string {
  const r = rng(n);
  const lines = Array.from({ length: n }, (_, d) => {
    const K = 2 + (d % 4);
    const ll = Array.from({ length: K }, () => -5 * r());
    const resps = ll.map((v) => [String(v), 'False']);
    // The harness's own acc: 1 where the largest log-likelihood is the target's.
    const acc = ll.indexOf(Math.max(...ll)) === d % K ? 1 : 0;
    return JSON.stringify({ doc_id: d, target: d % K, filtered_resps: resps, acc });
  });
  return lines.join('\n') + '\n';
}

const CHUNK = 64 * 1024;
const estimate = (name: string, text: string, budget = 2 ** 40, fileSize = text.length) =>
  estimateLoad(
    { fileName: name, fileSize, head: text.slice(0, HEAD) },
    { memoryBudgetBytes: budget, chunkSize: CHUNK },
  );

/** The memory model applied to the shape the loader actually built. */
function actualBytes(ds: Dataset, e: LoadEstimate, text: string, sampled = false): number {
  // Rows of sampled-out items are read but not stored: count the stored ones (wide).
  const rows = sampled
    ? ds.observed.reduce((t, o) => t + o, 0)
    : ds.sources.find((s) => s.format !== 'items')!.rows;
  const ids = [...ds.llmIds, ...ds.itemIds];
  const stride = e.format === 'harness' ? 10 : e.format === 'wide' ? 5 : 1;
  return loadBytes({
    format: e.format,
    rows,
    J: ds.J,
    I: ds.I,
    kmax: ds.Kmax,
    stride,
    idChars: ids.reduce((t, s) => t + s.length, 0) / (ds.J + ds.I),
    fileSize: text.length,
    chunkSize: CHUNK,
  }).total;
}

function expectWithin2(est: number, actual: number, what: string) {
  const ratio = est / actual;
  expect(ratio, `${what}: estimated ${est}, actual ${actual}`).toBeGreaterThanOrEqual(0.5);
  expect(ratio, `${what}: estimated ${est}, actual ${actual}`).toBeLessThanOrEqual(2);
}

async function check(name: string, text: string, files: { name: string; text: string }[]) {
  const e = estimate(name, text);
  const ds = await loadDataset(files);
  const rows = ds.sources.find((s) => s.file === name)!.rows;
  expect(text.length).toBeGreaterThan(HEAD * 4);
  expectWithin2(e.estimatedRows, rows, `${name} rows`);
  expectWithin2(e.estimatedCells, ds.J * ds.I, `${name} cells`);
  expectWithin2(e.estimatedBytes, actualBytes(ds, e, text), `${name} bytes`);
  expect(e.estimatedBytes).toBeGreaterThan(ds.obs.byteLength);
  expect(e.fits).toBe(true);
  return e;
}

describe('estimateLoad on generated files: within a factor of 2', () => {
  const sorted: Gen = { J: 12, I: 2500, order: 'model' };
  for (const g of [
    sorted,
    { ...sorted, order: 'item' },
    { ...sorted, order: 'shuffled' },
    { ...sorted, density: 0.7 },
    { J: 200, I: 150, order: 'model' },
  ] as Gen[])
    it(`wide CSV, J ${g.J}, I ${g.I}, density ${g.density ?? 1}, sorted by ${g.order}`, async () => {
      const text = wideCsv(g);
      await check('w.csv', text, [{ name: 'w.csv', text }]);
    });

  for (const order of ['model', 'shuffled'] as const)
    it(`long CSV + items, sorted by ${order}`, async () => {
      const { long, items } = longCsv({ J: 6, I: 1500, order });
      await check('l.csv', long, [
        { name: 'l.csv', text: long },
        { name: 'i.csv', text: items },
      ]);
    });

  it('harness log (one model per file)', async () => {
    const name = 'm/samples_bench_2024-01-01T00-00-00.jsonl';
    const text = harnessLog(6000);
    const e = await check(name, text, [{ name, text }]);
    expect(e.estimatedModels).toBe(1);
  });

  it('is exact when the head is the whole file', () => {
    const text = wideCsv({ J: 3, I: 20, order: 'model' });
    const e = estimate('w.csv', text);
    expect(e).toMatchObject({ estimatedRows: 60, estimatedModels: 3, estimatedItems: 20, kmax: 5 });
  });
});

describe('estimateLoad against a memory budget', () => {
  it('says a file too big for the budget does not fit, and which sample would', async () => {
    const text = wideCsv({ J: 12, I: 2500, order: 'model' });
    const full = estimate('w.csv', text);
    const budget = Math.round(full.estimatedBytes / 3);
    const e = estimate('w.csv', text, budget);
    expect(e.fits).toBe(false);
    expect(e.sampleFraction).toBeGreaterThan(0.1);
    expect(e.sampleFraction).toBeLessThan(0.34);
    expect(e.suggestion).toMatch(
      /^too large: needs about .* MiB \(budget .* MiB\); load a \d+% sample of items/,
    );
    const opts: LoadOptions = {
      sample: { fraction: e.sampleFraction!, seed: 1 },
      chunkSize: CHUNK,
    };
    const ds = await loadDataset([{ name: 'w.csv', text }], opts);
    expect(ds.I).toBeLessThan(2500 * 0.4);
    expect(actualBytes(ds, e, text, true)).toBeLessThan(budget);
  });

  it('gives up on sampling when even 0.1% would not fit', () => {
    const e = estimate('w.csv', wideCsv({ J: 12, I: 2500, order: 'model' }), 1024);
    expect(e.fits).toBe(false);
    expect(e.sampleFraction).toBeUndefined();
    expect(e.suggestion).toMatch(/even a 0\.1% sample/);
  });

  it('extrapolates a huge file from its head', () => {
    const text = wideCsv({ J: 12, I: 2500, order: 'model' });
    const e = estimate('w.csv', text, 1024 ** 3, text.length * 1000);
    expect(e.estimatedRows).toBeGreaterThan(25_000_000);
    expect(e.fits).toBe(false);
    expect(e.sampleFraction).toBeGreaterThan(0);
  });
});
