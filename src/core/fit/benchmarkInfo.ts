/**
 * Item information rows summed up per benchmark: the rows of the paper's
 * Fig. 2a, 2b (eval/info.ts adds the 'all' row) and of the views' derived
 * statistics (derive.ts), in the fit layer so that derive needs nothing above it.
 */
import { infoGainPct, type ItemInfoRow } from './info';

export interface BenchmarkInfoRow {
  benchmark: string;
  items: number;
  infoBinary: number;
  infoWrong: number;
  /** I_binary + I_wrong: the full option response. */
  infoTotal: number;
  /** 100 · mean I_wrong / mean I_binary (Fig. 2a's percentage). */
  gainPct: number;
  /** Mean count per item of wrong options that are the most likely response somewhere in the fitted LLMs' θ range (`informativeOptions`). */
  informativeDistractors: number;
  /** Share of items with at least one informative distractor. */
  shareWithInformative: number;
}

/** Groups rows by benchmark, in first-seen order ('(none)' for an empty name). */
export function byBenchmark<R extends { benchmark: string }>(rows: R[]): [string, R[]][] {
  const groups = new Map<string, R[]>();
  for (const r of rows) {
    const b = r.benchmark || '(none)';
    const g = groups.get(b);
    if (g) g.push(r);
    else groups.set(b, [r]);
  }
  return [...groups];
}

type InfoFields = Pick<ItemInfoRow, 'infoBinary' | 'infoWrong' | 'informativeDistractors'>;

/** The row of one group of items. */
export function summariseInfo(benchmark: string, g: InfoFields[]): BenchmarkInfoRow {
  const n = g.length || 1;
  const ib = g.reduce((s, r) => s + r.infoBinary, 0) / n;
  const iw = g.reduce((s, r) => s + r.infoWrong, 0) / n;
  const dist = g.map((r) => r.informativeDistractors);
  const hasDist = dist.every(Number.isFinite);
  return {
    benchmark,
    items: g.length,
    infoBinary: ib,
    infoWrong: iw,
    infoTotal: ib + iw,
    gainPct: infoGainPct(ib, iw),
    informativeDistractors: hasDist ? dist.reduce((s, d) => s + d, 0) / n : NaN,
    shareWithInformative: hasDist ? dist.filter((d) => d > 0).length / n : NaN,
  };
}

/** Rows per benchmark of item rows in first-seen order. */
export function benchmarkInfoRows<R extends InfoFields & { benchmark: string }>(
  rows: R[],
): BenchmarkInfoRow[] {
  return byBenchmark(rows).map(([b, g]) => summariseInfo(b, g));
}
