/**
 * Random valid data sets for this folder's property tests (not used by the app):
 * a `Spec` is the ground truth, serialised to every format by `formats.ts`
 * and compared with what the loaders read back.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { parentBenchmark } from '../../../src/core/data/harnessRuns.ts';
import { OPTION_LABELS, type Dataset, type ItemText } from '../../../src/core/data/types.ts';

/** One item of a test data set. */
export interface SpecItem {
  /** `<task>/<doc>`, which is also the harness item id. */
  id: string;
  task: string;
  /** Harness doc_id: a number, or a string that may hold commas, quotes, newlines. */
  doc: number | string;
  /** Benchmark written to CSV files ('' = none). */
  bench: string;
  K: number;
  key: number;
  text: ItemText;
}

/** A test data set: the ground truth every format is written from. */
export interface Spec {
  models: string[];
  items: SpecItem[];
  /** cells[j][i]: raw probabilities (NaN = missing option, 0 allowed), or null = missing cell. */
  cells: (number[] | null)[][];
}

const TASKS = ['arc_easy', 'mmlu_high_school', 'hella'];
const DOC_PREFIX = ['', 'q', 'a,b', 'say "hi"', 'two\nlines', 'é€ü', 'x y'];
const MODELS = ['m', 'org,model ', '"quoted" ', 'Llama-3.1 ', 'модель-'];
const TEXTS = ['', 'plain', 'a, b', 'say "hi"', 'line\nbreak', 'crlf\r\nbreak', ' é€ ', '"'];

const textArb = fc.array(fc.constantFrom(...TEXTS), { minLength: 1, maxLength: 3 }).map((p) => {
  return p.join('');
});

const itemArb = fc.record({
  task: fc.constantFrom(...TASKS),
  prefix: fc.constantFrom(...DOC_PREFIX),
  bench: fc.boolean(),
  K: fc.integer({ min: 2, max: 10 }),
  key: fc.nat(),
  question: textArb,
  options: fc.array(textArb, { minLength: 10, maxLength: 10 }),
});

/** One option value: mostly a probability, sometimes 0 or missing. */
const valueArb = fc.oneof(
  { weight: 8, arbitrary: fc.double({ min: 1e-4, max: 1, noNaN: true }) },
  { weight: 1, arbitrary: fc.constant(0) },
  { weight: 2, arbitrary: fc.constant(NaN) },
);

/** Random valid data sets: J 1..5 models, I 1..12 items with K_i in 2..10. */
export const specArb: fc.Arbitrary<Spec> = fc
  .tuple(
    fc.uniqueArray(fc.integer({ min: 0, max: 49 }), { minLength: 1, maxLength: 5 }),
    fc.array(itemArb, { minLength: 1, maxLength: 12 }),
  )
  .chain(([ms, raw]) => {
    const models = ms.map((n) => `${MODELS[n % MODELS.length]}${n}`);
    const items = raw.map((r, n): SpecItem => {
      const doc = r.prefix === '' ? n : `${r.prefix}${n}`;
      return {
        id: `${r.task}/${doc}`,
        task: r.task,
        doc,
        bench: r.bench ? r.task : '',
        K: r.K,
        key: r.key % r.K,
        text: { question: r.question, options: r.options.slice(0, r.K) },
      };
    });
    const cellArb = (K: number) =>
      fc.option(fc.array(valueArb, { minLength: K, maxLength: K }), { freq: 4 });
    const row = fc.tuple(...items.map((it) => cellArb(it.K)));
    return fc.array(row, { minLength: models.length, maxLength: models.length }).map((rows) => ({
      models,
      items,
      cells: rows.map((r) => r.map(fixCell)),
    }));
  })
  .filter((s) => s.cells.some((r) => r.some((c) => c !== null)));

/** A cell needs positive mass; keep sums away from 1 +- 1e-5, where values are kept unscaled. */
function fixCell(c: number[] | null): number[] | null {
  if (!c || !c.some((v) => v > 0)) return null;
  const s = c.reduce((t, v) => (Number.isNaN(v) ? t : t + v), 0);
  return Math.abs(s - 1) < 1e-5 ? c.map((v) => v * 0.9) : c;
}

/** Observed cells in model-major order. */
export function eachCell(s: Spec, fn: (j: number, i: number, c: number[]) => void): void {
  s.cells.forEach((row, j) => row.forEach((c, i) => c && fn(j, i, c)));
}

/** The normalised distribution of a raw cell. */
export function normalised(c: number[]): number[] {
  const s = c.reduce((t, v) => (Number.isNaN(v) ? t : t + v), 0);
  return c.map((v) => (Number.isNaN(v) ? 0 : v / s));
}

/**
 * The Dataset the loaders should build from CSV files written in model-major
 * order: models and items in order of first appearance.
 */
export function expectedDataset(s: Spec): Dataset {
  const js: number[] = [];
  const is: number[] = [];
  eachCell(s, (j, i) => {
    if (!js.includes(j)) js.push(j);
    if (!is.includes(i)) is.push(i);
  });
  const [J, I] = [js.length, is.length];
  const nOptions = Uint8Array.from(is, (i) => s.items[i].K);
  const Kmax = Math.max(2, ...nOptions);
  const obs = new Float32Array(J * I * Kmax);
  const observed = new Uint8Array(J * I);
  js.forEach((j, a) =>
    is.forEach((i, b) => {
      const c = s.cells[j][i];
      if (!c) return;
      observed[a * I + b] = 1;
      obs.set(normalised(c), (a * I + b) * Kmax);
    }),
  );
  return {
    J,
    I,
    Kmax,
    llmIds: js.map((j) => s.models[j]),
    itemIds: is.map((i) => s.items[i].id),
    benchmarks: is.map((i) => s.items[i].bench),
    nOptions,
    key: Uint8Array.from(is, (i) => s.items[i].key),
    obs,
    observed,
    leakage: new Float32Array(J * I),
    itemTexts: is.map((i) => s.items[i].text),
    sources: [],
    warnings: [],
  };
}

/** How a loaded Dataset is compared with the spec. */
export interface Compare {
  /** Models and items must be in exactly the expected order (else matched by id). */
  exactOrder: boolean;
  /** Expected benchmark per item: as written, the harness task's parent benchmark, or none. */
  bench: 'spec' | 'task' | 'none';
  /** Compare item texts (files with an items file carrying texts). */
  texts: boolean;
}

/** Asserts that `ds` holds the spec's data: ids, keys, option counts, observed cells, obs +- 1e-6. */
export function expectMatchesSpec(ds: Dataset, s: Spec, how: Compare): void {
  const want = expectedDataset(s);
  if (how.exactOrder) {
    expect(ds.llmIds).toEqual(want.llmIds);
    expect(ds.itemIds).toEqual(want.itemIds);
  } else {
    expect([...ds.llmIds].sort()).toEqual([...want.llmIds].sort());
    expect([...ds.itemIds].sort()).toEqual([...want.itemIds].sort());
  }
  expect(ds.Kmax).toBe(want.Kmax);
  expect(ds.obs.length).toBe(ds.J * ds.I * ds.Kmax);
  ds.itemIds.forEach((id, i) => {
    const it = s.items.find((x) => x.id === id)!;
    expect(ds.nOptions[i]).toBe(it.K);
    expect(ds.key[i]).toBe(it.key);
    const bench =
      how.bench === 'spec' ? it.bench : how.bench === 'task' ? parentBenchmark(it.task) : '';
    expect(ds.benchmarks[i]).toBe(bench);
    if (how.texts) expect(ds.itemTexts?.[i]).toEqual(it.text);
  });
  let maxDiff = 0;
  ds.llmIds.forEach((model, j) => {
    const sj = s.models.indexOf(model);
    ds.itemIds.forEach((id, i) => {
      const c = s.cells[sj][s.items.findIndex((x) => x.id === id)];
      const cell = j * ds.I + i;
      expect(ds.observed[cell]).toBe(c ? 1 : 0);
      const p = c ? normalised(c) : [];
      for (let k = 0; k < ds.Kmax; k++) {
        const got = ds.obs[cell * ds.Kmax + k];
        maxDiff = Math.max(maxDiff, Math.abs(got - (p[k] ?? 0)));
      }
    });
  });
  expect(maxDiff).toBeLessThanOrEqual(1e-6);
}

/** Labels for item keys and option rows. */
export const label = (k: number) => OPTION_LABELS[k];
