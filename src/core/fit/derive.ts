/**
 * Derived statistics for the views, computed from a fit and its data set (in
 * the worker, so the main thread never blocks on them). Pure: plain arrays in,
 * plain arrays out. Assumes `fit.items[i]` is `ds.itemIds[i]` and
 * `fit.llms[j]` is `ds.llmIds[j]`.
 */
import type { Dataset } from '../data/types';
import { benchmarkInfoRows, type BenchmarkInfoRow } from './benchmarkInfo';
import { isCorrect } from '../model/cells';
import { binaryInfoAt, iteminfoAt } from '../model/itemfns';
import { isBinary } from '../model/types';
import { binaryItemOf, itemInfoRows, nominalItemOf } from './info';
import type { FitJson } from './types';

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
  /** Per benchmark in first-seen order (binary fits: no distractor counts). */
  infoByBenchmark: BenchmarkInfoRow[];
}

/** Per item: share of observed LLMs whose argmax is the key. */
export function itemAccuracy(ds: Dataset): Float64Array {
  const out = new Float64Array(ds.I);
  for (let i = 0; i < ds.I; i++) {
    let hit = 0;
    let seen = 0;
    for (let j = 0; j < ds.J; j++) {
      if (!ds.observed[j * ds.I + i]) continue;
      seen++;
      if (isCorrect(ds, j * ds.I + i)) hit++;
    }
    out[i] = seen ? hit / seen : NaN;
  }
  return out;
}

/** Item rows and benchmark summaries of a fit. */
export function deriveStats(fit: FitJson, ds: Dataset): Derived {
  const binary = isBinary(fit.model);
  const acc = itemAccuracy(ds);
  const info = itemInfoRows(fit);
  const items: ItemRow[] = fit.items.map((it, i) => ({
    index: i,
    id: it.id,
    benchmark: it.benchmark,
    key: it.key,
    b: it.b,
    aKey: binary ? binaryItemOf(it).slope : (it.a?.[ds.key[i]] ?? NaN),
    infoBinary: info[i].infoBinary,
    infoWrong: info[i].infoWrong,
    informative: info[i].informativeDistractors,
    accuracy: acc[i],
  }));
  return {
    binary,
    items,
    thetas: Float64Array.from(fit.llms, (l) => l.theta),
    infoByBenchmark: benchmarkInfoRows(info),
  };
}

/** Test information over `grid`: the sum of every item's information. */
export function testInformation(fit: FitJson, ds: Dataset, grid: ArrayLike<number>): number[] {
  const out = new Array<number>(grid.length).fill(0);
  const binary = isBinary(fit.model);
  const scratch = new Float64Array(ds.Kmax);
  for (const it of fit.items) {
    if (binary) {
      const bi = binaryItemOf(it);
      for (let q = 0; q < grid.length; q++) out[q] += binaryInfoAt(bi, grid[q]);
    } else {
      const ni = nominalItemOf(it);
      for (let q = 0; q < grid.length; q++) out[q] += iteminfoAt(ni, grid[q], scratch).total;
    }
  }
  return out;
}
