import { max, scaleLinear } from 'd3';
import type { BenchmarkInfoRow } from '../core/eval/info';
import { createRowFrame, drawRowAxes, fmt, hbar, valueLabel } from './frame';
import { drawLegend } from './palette';
import type { ChartOptions } from './types';

/** What the chart reads of a benchmark's row (core's `BenchmarkInfoRow`). */
export type BenchmarkInfo = Pick<
  BenchmarkInfoRow,
  'benchmark' | 'infoBinary' | 'infoWrong' | 'gainPct'
>;

/** "+101%", "−4%" or "—" for an undefined gain. */
export function formatGain(pct: number): string {
  if (!Number.isFinite(pct)) return '—';
  const r = Math.round(pct);
  return r < 0 ? `−${-r}%` : `+${r}%`;
}

const BINARY_COLOR = '#4e79a7';
const WRONG_COLOR = '#f28e2b';

/** Horizontal stacked bars of mean I_binary and I_wrong per benchmark, labelled with the % gain. */
export function infoByBenchmarkChart(
  rows: BenchmarkInfo[],
  opts: ChartOptions = {},
): SVGSVGElement {
  const f = createRowFrame(opts, {
    title: 'Mean item information per benchmark: binary vs distractor identity',
    names: rows.map((r) => r.benchmark),
    rowHeight: 22,
    top: 32,
    right: 56,
  });
  const total = (r: BenchmarkInfo) => r.infoBinary + r.infoWrong;
  const x = scaleLinear()
    .domain([0, max(rows, (r) => Math.max(total(r), r.infoBinary)) || 1])
    .nice()
    .range([0, f.innerWidth]);
  drawRowAxes(f, x, 'Mean Fisher information per item');

  const bars = f.plot.append('g').attr('class', 'bars');
  rows.forEach((r, i) => {
    const row = bars.append('g').attr('class', 'benchmark').attr('data-benchmark', r.benchmark);
    row
      .append('title')
      .text(
        `${r.benchmark}: binary ${fmt(r.infoBinary, 3)}, distractors ${fmt(r.infoWrong, 3)} (${formatGain(r.gainPct)})`,
      );
    const band = { y: f.y(i)!, height: f.y.bandwidth() };
    const at = (v: number) => Math.max(0, v);
    hbar(row, x, band, at(0), at(r.infoBinary), BINARY_COLOR, { 'data-layer': 'binary' });
    hbar(row, x, band, at(r.infoBinary), at(total(r)), WRONG_COLOR, { 'data-layer': 'wrong' });
    const end = x(Math.max(0, total(r), r.infoBinary)) + 4;
    valueLabel(row, end, band.y + band.height / 2, formatGain(r.gainPct), 'gain');
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
