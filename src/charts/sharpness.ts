import { axisTop, extent, scaleLog } from 'd3';
import { axisLabel, createFrame, drawAxis, fmt, labelMargin, MUTED, truncate } from './frame';
import type { ChartOptions } from './types';

export interface SharpnessRow {
  id: string;
  /** Response sharpness s_j > 0. */
  s: number;
  /** Its standard error, when the fit has one: drawn as s ± SE. */
  se?: number;
}

/** Positive, finite sharpness rows sorted from sharpest to flattest (ties by id). */
export function sortBySharpness(rows: SharpnessRow[]): SharpnessRow[] {
  return rows
    .filter((r) => Number.isFinite(r.s) && r.s > 0)
    .sort((a, b) => b.s - a.s || (a.id < b.id ? -1 : 1));
}

const ROW = 14;

/** Dot plot of per-LLM response sharpness s_j (± SE when known) on a log scale, with a reference rule at s = 1. */
export function sharpnessChart(data: SharpnessRow[], opts: ChartOptions = {}): SVGSVGElement {
  const rows = sortBySharpness(data);
  const margin = { top: 40, right: 20, bottom: 12, left: labelMargin(rows.map((r) => r.id)) };
  const f = createFrame(opts, {
    width: 480,
    height: margin.top + margin.bottom + Math.max(1, rows.length) * ROW,
    title: 'Response sharpness s per LLM (s > 1 sharper, s < 1 flatter)',
    margin,
  });
  const hasSE = (r: SharpnessRow) => r.se !== undefined && Number.isFinite(r.se) && r.se > 0;
  // The interval's ends, kept positive for the log scale.
  const lowEnd = (r: SharpnessRow) => (hasSE(r) ? Math.max(r.s - r.se!, r.s / 10) : r.s);
  const highEnd = (r: SharpnessRow) => (hasSE(r) ? r.s + r.se! : r.s);
  const [lo = 1, hi = 1] = extent([1, ...rows.map(lowEnd), ...rows.map(highEnd)]);
  // Pad by a constant factor so the extreme dots are not on the frame.
  const x = scaleLog()
    .domain([lo / 1.2, hi * 1.2])
    .range([0, f.innerWidth]);
  const height = rows.length * ROW;

  drawAxis(f.plot, axisTop(x).ticks(5, '~g'), 'translate(0,-4)');
  axisLabel(f.plot, 'Sharpness s (log scale)', f.innerWidth / 2, -26);
  f.plot
    .append('line')
    .attr('class', 'reference')
    .attr('x1', x(1))
    .attr('x2', x(1))
    .attr('y2', height)
    .attr('stroke', MUTED)
    .attr('stroke-dasharray', '4 3')
    .append('title')
    .text('s = 1: no sharpening');

  const dots = f.plot.append('g').attr('class', 'dots');
  rows.forEach((r, i) => {
    const y = i * ROW + ROW / 2;
    const g = dots.append('g').attr('data-llm', r.id).attr('transform', `translate(0,${y})`);
    g.append('title').text(`${r.id}: s = ${fmt(r.s, 3)}${hasSE(r) ? ` ± ${fmt(r.se!, 3)}` : ''}`);
    g.append('line').attr('x1', x(1)).attr('x2', x(r.s)).attr('stroke', '#bbb');
    if (hasSE(r))
      g.append('line')
        .attr('class', 'se')
        .attr('x1', x(lowEnd(r)))
        .attr('x2', x(highEnd(r)))
        .attr('stroke', r.s >= 1 ? '#4e79a7' : '#f28e2b')
        .attr('stroke-width', 1.5);
    g.append('circle')
      .attr('cx', x(r.s))
      .attr('r', 3.5)
      .attr('fill', r.s >= 1 ? '#4e79a7' : '#f28e2b');
    g.append('text')
      .attr('x', -6)
      .attr('dy', '0.32em')
      .attr('text-anchor', 'end')
      .attr('fill', 'currentColor')
      .text(truncate(r.id));
  });
  return f.svg.node()!;
}
