/**
 * Derived statistics for the views, computed from a fit and its data set. Pure:
 * plain arrays in, plain arrays out, no DOM. Assumes `fit.items[i]` is
 * `ds.itemIds[i]` and `fit.llms[j]` is `ds.llmIds[j]` (see `fitio.ts`).
 */
import type { Dataset } from '../core/data/types';
import type { FitJson, ItemResult } from '../core/fit/types';
import {
  binaryInfoAt,
  informativeDistractors,
  iteminfoAt,
  meanInfo,
  type NominalItem,
} from '../core/model/itemfns';
import { isBinary } from '../core/model/types';
import { argmaxAt } from '../core/model/cells';
import { binaryItemOf as binaryItem } from '../core/fit/info';

/**
 * Per-benchmark rows, shaped as the infoByBenchmark and distractorsByBenchmark
 * charts read them (declared here, not imported, so the worker, which computes
 * these, never type-checks DOM chart code).
 */
export interface BenchmarkInfo {
  benchmark: string;
  binary: number;
  wrong: number;
}
export interface BenchmarkDistractors {
  benchmark: string;
  meanInformative: number;
  items: number;
}

/** One row of the items table. */
export interface ItemRow {
  index: number;
  id: string;
  benchmark: string;
  /** Key label ('A', ...). */
  key: string;
  /** b̃ (nominal) or −d/a (binary). */
  b: number;
  /** Discrimination of the key option (nominal) or the item slope (binary). */
  aKey: number;
  /** Mean over the fitted θ of the LLMs. */
  infoBinary: number;
  /** Mean over the fitted θ of the LLMs (0 for binary models). */
  infoWrong: number;
  /** Informative distractors (NaN for binary models). */
  informative: number;
  /** Share of observed LLMs whose most likely option is the key (NaN if none observed). */
  accuracy: number;
}

/** Item and benchmark statistics of one fit. */
export interface Derived {
  binary: boolean;
  items: ItemRow[];
  thetas: Float64Array;
  infoByBenchmark: BenchmarkInfo[];
  distractorsByBenchmark: BenchmarkDistractors[];
}

/** The nominal item as the item functions read it. */
export function nominalItem(it: ItemResult, keyIndex: number): NominalItem {
  return { a: it.a ?? [], c: it.c ?? [], key: keyIndex };
}

/** The binary item as the item functions read it. */
export { binaryItemOf as binaryItem } from '../core/fit/info';
export { argmaxAt };

/** Per item: share of observed LLMs whose argmax is the key. */
export function itemAccuracy(ds: Dataset): Float64Array {
  const out = new Float64Array(ds.I);
  for (let i = 0; i < ds.I; i++) {
    let hit = 0;
    let seen = 0;
    for (let j = 0; j < ds.J; j++) {
      if (!ds.observed[j * ds.I + i]) continue;
      seen++;
      if (argmaxAt(ds.obs, (j * ds.I + i) * ds.Kmax, ds.nOptions[i]) === ds.key[i]) hit++;
    }
    out[i] = seen ? hit / seen : NaN;
  }
  return out;
}

/** Item rows and benchmark summaries of a fit. */
export function deriveStats(fit: FitJson, ds: Dataset): Derived {
  const binary = isBinary(fit.model);
  const thetas = Float64Array.from(fit.llms, (l) => l.theta);
  const acc = itemAccuracy(ds);
  const items: ItemRow[] = fit.items.map((it, i) => {
    const base = { index: i, id: it.id, benchmark: it.benchmark, key: it.key, b: it.b };
    if (binary) {
      const bi = binaryItem(it);
      let info = 0;
      for (const t of thetas) info += binaryInfoAt(bi, t);
      const infoBinary = thetas.length ? info / thetas.length : 0;
      return {
        ...base,
        aKey: bi.slope,
        infoBinary,
        infoWrong: 0,
        informative: NaN,
        accuracy: acc[i],
      };
    }
    const ni = nominalItem(it, ds.key[i]);
    const m = meanInfo(ni, thetas);
    return {
      ...base,
      aKey: ni.a[ni.key] ?? NaN,
      infoBinary: m.binary,
      infoWrong: m.wrong,
      informative: informativeDistractors(ni).length,
      accuracy: acc[i],
    };
  });
  return {
    binary,
    items,
    thetas,
    infoByBenchmark: byBenchmark(items, (rows) => ({
      binary: mean(rows, (r) => r.infoBinary),
      wrong: mean(rows, (r) => r.infoWrong),
    })),
    distractorsByBenchmark: binary
      ? []
      : byBenchmark(items, (rows) => ({
          meanInformative: mean(rows, (r) => r.informative),
          items: rows.length,
        })),
  };
}

function mean<T>(rows: T[], f: (r: T) => number): number {
  let s = 0;
  for (const r of rows) s += f(r);
  return rows.length ? s / rows.length : NaN;
}

/** Groups rows by benchmark (first-seen order) and summarises each group. */
function byBenchmark<S>(
  items: ItemRow[],
  summarise: (rows: ItemRow[]) => S,
): ({ benchmark: string } & S)[] {
  const groups = new Map<string, ItemRow[]>();
  for (const r of items) {
    const g = groups.get(r.benchmark);
    if (g) g.push(r);
    else groups.set(r.benchmark, [r]);
  }
  return [...groups].map(([benchmark, rows]) => ({
    benchmark: benchmark || '(none)',
    ...summarise(rows),
  }));
}

/** Test information over `grid`: the sum of every item's information. */
export function testInformation(fit: FitJson, ds: Dataset, grid: ArrayLike<number>): number[] {
  const out = new Array<number>(grid.length).fill(0);
  const binary = isBinary(fit.model);
  const scratch = new Float64Array(ds.Kmax);
  fit.items.forEach((it, i) => {
    if (binary) {
      const bi = binaryItem(it);
      for (let q = 0; q < grid.length; q++) out[q] += binaryInfoAt(bi, grid[q]);
    } else {
      const ni = nominalItem(it, ds.key[i]);
      for (let q = 0; q < grid.length; q++) out[q] += iteminfoAt(ni, grid[q], scratch).total;
    }
  });
  return out;
}
