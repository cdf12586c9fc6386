/** A compact description of a Dataset for the load report in the UI. */
import { itemPreview, type ItemPreview } from './itemPreview.ts';
import type { Dataset, LoadWarning, ProducerCheck, SkippedFile } from './types.ts';

/** Skipped files with one kind of reason; `reason` is the first file's. */
export interface SkippedGroup {
  reason: string;
  files: SkippedFile[];
}

/** A reason with its particulars (quoted values, numbers) blanked: reasons alike share a group. */
const kindOf = (reason: string) =>
  reason.replace(/'[^']*'/g, "''").replace(/\d+(?:[.,]\d+)*/g, '#');

/**
 * Skipped files grouped by reason, groups in order of their first file. Reasons
 * that differ only in quoted values and numbers (the task, the answer, a record
 * number) share a group, labelled with its first file's reason; each file keeps
 * its own.
 */
export function groupSkipped(skipped: SkippedFile[]): SkippedGroup[] {
  const by = new Map<string, SkippedGroup>();
  for (const s of skipped) {
    const g = by.get(kindOf(s.reason));
    if (g) g.files.push(s);
    else by.set(kindOf(s.reason), { reason: s.reason, files: [s] });
  }
  return [...by.values()];
}

/** What `datasetSummary` returns. */
export interface DatasetSummary {
  J: number;
  I: number;
  Kmax: number;
  /** Items per option count, ascending by option count. */
  optionCountHistogram: { nOptions: number; items: number }[];
  /** Items per benchmark, in order of first appearance ('' = unknown). */
  benchmarks: { name: string; items: number }[];
  /** Observed cells. */
  cells: number;
  /** Share of (model, item) cells with no data. */
  missingShare: number;
  /** Mass outside the options over cells where it is known (NaN when none). */
  leakage: { mean: number; max: number; above1pct: number; cells: number };
  warnings: LoadWarning[];
  /** Files that gave nothing, grouped by reason (absent in old sessions). */
  skipped?: SkippedGroup[];
  /** Key checks against the producer's own score, per file that carries one. */
  producerChecks?: { file: string; check: ProducerCheck }[];
  /** Per-item accuracy and choice shares, to list items before a fit (absent in old sessions). */
  items?: ItemPreview;
}

/** Summarises shape, option counts, benchmarks, missingness and leakage. */
export function datasetSummary(ds: Dataset): DatasetSummary {
  const hist = new Map<number, number>();
  for (const k of ds.nOptions) hist.set(k, (hist.get(k) ?? 0) + 1);
  const bench = new Map<string, number>();
  for (const b of ds.benchmarks) bench.set(b, (bench.get(b) ?? 0) + 1);
  let cells = 0;
  for (const o of ds.observed) cells += o;
  let sum = 0;
  let n = 0;
  let max = NaN;
  let above = 0;
  ds.leakage.forEach((l, c) => {
    if (!ds.observed[c] || Number.isNaN(l)) return;
    sum += l;
    n++;
    if (!(l <= max)) max = l;
    if (l > 0.01) above++;
  });
  const total = ds.J * ds.I;
  return {
    J: ds.J,
    I: ds.I,
    Kmax: ds.Kmax,
    optionCountHistogram: [...hist]
      .sort((a, b) => a[0] - b[0])
      .map(([nOptions, items]) => ({ nOptions, items })),
    benchmarks: [...bench].map(([name, items]) => ({ name, items })),
    cells,
    missingShare: total > 0 ? 1 - cells / total : 0,
    leakage: { mean: n > 0 ? sum / n : NaN, max, above1pct: above, cells: n },
    warnings: ds.warnings,
    skipped: groupSkipped(ds.skipped ?? []),
    producerChecks: ds.sources.flatMap((s) =>
      s.producerCheck ? [{ file: s.file, check: s.producerCheck }] : [],
    ),
    items: itemPreview(ds),
  };
}
