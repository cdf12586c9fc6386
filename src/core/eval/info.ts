/**
 * Information and distractors by benchmark (paper Fig. 2a, 2b): per benchmark,
 * the mean item information in binary correctness and what the wrong option's
 * identity adds (each item's information averaged over the fitted θ, then over
 * the benchmark's items), the gain of the full option response over binary
 * scoring, and the mean number of informative distractors per item.
 */
import { itemInfoRows } from '../fit/info';
import type { FitJson } from '../fit/types';
import { benchmarkInfoRows, summariseInfo, type BenchmarkInfoRow } from '../fit/benchmarkInfo';

export type { BenchmarkInfoRow };

/** Rows per benchmark in first-seen order, then 'all' over every item. Binary fits have I_wrong 0 and no distractor counts. */
export function infoByBenchmark(fit: FitJson): BenchmarkInfoRow[] {
  const rows = itemInfoRows(fit);
  return [...benchmarkInfoRows(rows), summariseInfo('all', rows)];
}
