import { axisBottom, axisLeft, max, scaleBand, scaleLinear } from 'd3';
import { axisLabel, createFrame, drawAxis, fmt, labelMargin, truncate } from './frame';
import { drawLegend } from './palette';
import type { ChartOptions } from './types';

export interface BenchmarkInfo {
  benchmark: string;
  /** Mean I_binary per item. */
  binary: number;
  /** Mean I_wrong per item (information beyond correctness). */
  wrong: number;
}

export interface BenchmarkInfoGain extends BenchmarkInfo {
  total: number;
  /** Increase of the full response over binary scoring, wrong / binary · 100 (NaN if binary ≤ 0). */
  gainPct: number;
}

/** Adds the total and the % information gain over binary scoring (paper Fig. 2a). */
export function infoGain(rows: BenchmarkInfo[]): BenchmarkInfoGain[] {
  return rows.map((r) => ({
    ...r,
    total: r.binary + r.wrong,
    gainPct: r.binary > 0 ? (r.wrong / r.binary) * 100 : NaN,
  }));
}

/** "+101%", "−4%" or "—" for an undefined gain. */
export function formatGain(pct: number): string {
  if (!Number.isFinite(pct)) return '—';
  const r = Math.round(pct);
  return r < 0 ? `−${-r}%` : `+${r}%`;
}

const BINARY_COLOR = '#4e79a7';
const WRONG_COLOR = '#f28e2b';
const ROW = 22;

/** Horizontal stacked bars of mean I_binary and I_wrong per benchmark, labelled with the % gain. */
export function infoByBenchmarkChart(
  data: BenchmarkInfo[],
  opts: ChartOptions = {},
): SVGSVGElement {
  const rows = infoGain(data);
  const names = rows.map((r) => r.benchmark);
  const margin = { top: 32, right: 56, bottom: 36, left: labelMargin(names) };
  const f = createFrame(opts, {
    width: 640,
    height: margin.top + margin.bottom + Math.max(1, rows.length) * ROW,
    title: 'Mean item information per benchmark: binary vs distractor identity',
    margin,
  });
  const x = scaleLinear()
    .domain([0, max(rows, (r) => Math.max(r.total, r.binary)) || 1])
    .nice()
    .range([0, f.innerWidth]);
  // Indices keep duplicate benchmark names on separate rows.
  const y = scaleBand<number>()
    .domain(rows.map((_, i) => i))
    .range([0, f.innerHeight])
    .padding(0.2);

  drawAxis(f.plot, axisBottom(x).ticks(6), `translate(0,${f.innerHeight})`);
  drawAxis(
    f.plot,
    axisLeft(y).tickFormat((i) => truncate(names[i])),
  );
  axisLabel(f.plot, 'Mean Fisher information per item', f.innerWidth / 2, f.innerHeight + 32);

  const bars = f.plot.append('g').attr('class', 'bars');
  rows.forEach((r, i) => {
    const row = bars.append('g').attr('class', 'benchmark').attr('data-benchmark', r.benchmark);
    row
      .append('title')
      .text(
        `${r.benchmark}: binary ${fmt(r.binary, 3)}, distractors ${fmt(r.wrong, 3)} (${formatGain(r.gainPct)})`,
      );
    const segments = [
      { layer: 'binary', from: 0, to: r.binary, color: BINARY_COLOR },
      { layer: 'wrong', from: r.binary, to: r.total, color: WRONG_COLOR },
    ];
    for (const s of segments) {
      const x0 = x(Math.max(0, Math.min(s.from, s.to)));
      const x1 = x(Math.max(0, Math.max(s.from, s.to)));
      row
        .append('rect')
        .attr('data-layer', s.layer)
        .attr('x', x0)
        .attr('y', y(i)!)
        .attr('width', Math.max(0, x1 - x0))
        .attr('height', y.bandwidth())
        .attr('fill', s.color);
    }
    row
      .append('text')
      .attr('class', 'gain')
      .attr('x', x(Math.max(0, r.total, r.binary)) + 4)
      .attr('y', y(i)! + y.bandwidth() / 2)
      .attr('dy', '0.32em')
      .attr('fill', 'currentColor')
      .text(formatGain(r.gainPct));
  });

  drawLegend(
    f.plot,
    [
      { label: 'Binary correctness', color: BINARY_COLOR, shape: 'rect' },
      { label: 'Distractor identity', color: WRONG_COLOR, shape: 'rect' },
    ],
    0,
    -20,
    { horizontal: true },
  );
  return f.svg.node()!;
}
