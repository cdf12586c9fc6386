import type { Dataset } from '../core/data/types';
import type { DataSummary } from './protocol';

/** The load summary the client shows: sizes, option counts, benchmarks, gaps, leakage. */
export function summarise(ds: Dataset): DataSummary {
  const optionCounts: Record<number, number> = {};
  for (let i = 0; i < ds.I; i++)
    optionCounts[ds.nOptions[i]] = (optionCounts[ds.nOptions[i]] ?? 0) + 1;
  const bench = new Map<string, number>();
  for (const b of ds.benchmarks) bench.set(b, (bench.get(b) ?? 0) + 1);
  let seen = 0;
  for (let x = 0; x < ds.observed.length; x++) seen += ds.observed[x];
  let sum = 0;
  let n = 0;
  let max = NaN;
  for (let x = 0; x < ds.leakage.length; x++) {
    const v = ds.leakage[x];
    if (!ds.observed[x] || Number.isNaN(v)) continue;
    sum += v;
    n++;
    if (!(v <= max)) max = v;
  }
  const cells = ds.J * ds.I;
  return {
    J: ds.J,
    I: ds.I,
    Kmax: ds.Kmax,
    optionCounts,
    benchmarks: [...bench].map(([name, items]) => ({ name, items })),
    missingShare: cells ? 1 - seen / cells : 0,
    meanLeakage: n ? sum / n : NaN,
    maxLeakage: max,
    hasItemTexts: !!ds.itemTexts?.some((t) => t),
  };
}
