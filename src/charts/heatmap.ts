import {
  axisLeft,
  axisRight,
  axisTop,
  interpolateRdBu,
  max,
  scaleBand,
  scaleDiverging,
  scaleLinear,
} from 'd3';
import { axisLabel, createFrame, drawAxis, fmt, labelMargin, MUTED, truncate } from './frame';

import type { ChartOptions } from './types';

/** A small magnitude in two significant digits ('3.1e−6', '0.12'). */
const fmtSmall = (v: number) =>
  (v !== 0 && Math.abs(v) < 0.001 ? v.toExponential(1) : String(+v.toPrecision(2))).replace(
    '-',
    '−',
  );

export interface HeatmapData {
  rows: string[];
  cols: string[];
  /** values[row][col]. */
  values: number[][];
  title: string;
  /** What the colours encode, with units ('δ (logit shift)'); drawn above the colour bar. */
  legendTitle?: string;
  /** Axis titles: what the rows and the columns are. */
  rowTitle?: string;
  colTitle?: string;
  /**
   * The colour scale's smallest half-span, in the values' units (default
   * DEFAULT_MIN_EXTENT): values far inside it look neutral, so a map of
   * ±0.000003 (ρ with the fallback gate shut) is white, not the full scale.
   */
  minExtent?: number;
}

/**
 * Default smallest half-span: 0.5 logits, the shift that moves a probability
 * of 0.5 to 0.62. The δ and ρ maps are logits; a smaller largest value gets
 * pale colours, and a note says how small the values are.
 */
export const DEFAULT_MIN_EXTENT = 0.5;

/**
 * Largest |value| over finite cells, at least `minExtent` (1 when there are
 * none or all are 0 and no minimum is given), for a symmetric scale.
 */
export function symmetricExtent(values: number[][], minExtent = 0): number {
  const m = max(values.flat().filter(Number.isFinite), (v) => Math.abs(v)) ?? 0;
  const e = Math.max(m, minExtent);
  return e > 0 ? e : 1;
}

/** Largest |value| over finite cells (0 when none). */
const largest = (values: number[][]) =>
  max(values.flat().filter(Number.isFinite), (v) => Math.abs(v)) ?? 0;

const CELL = 14;
const LEGEND_STEPS = 24;
const MISSING = '#ddd';

/**
 * Diverging heatmap (RdBu, symmetric around 0, at least ±minExtent) for
 * per-LLM δ and ρ by option position. The colour legend is drawn as discrete steps rather than a
 * gradient so the chart needs no document-unique ids.
 */
export function heatmapChart(data: HeatmapData, opts: ChartOptions = {}): SVGSVGElement {
  const minExtent = data.minExtent ?? DEFAULT_MIN_EXTENT;
  const big = largest(data.values);
  // A note under the map when every value is inside the scale's minimum span.
  const small = big < minExtent;
  const margin = {
    top: 44,
    right: 96,
    bottom: small ? 30 : 12,
    left: labelMargin(data.rows) + 16,
  };
  const f = createFrame(opts, {
    width: 480,
    height: margin.top + margin.bottom + Math.max(1, data.rows.length) * CELL,
    title: data.title,
    margin,
  });
  const m = symmetricExtent(data.values, minExtent);
  const color = scaleDiverging(interpolateRdBu).domain([-m, 0, m]);
  const x = scaleBand<number>()
    .domain(data.cols.map((_, i) => i))
    .range([0, f.innerWidth]);
  const y = scaleBand<number>()
    .domain(data.rows.map((_, i) => i))
    .range([0, f.innerHeight]);

  drawAxis(
    f.plot,
    axisTop(x)
      .tickSize(0)
      .tickPadding(6)
      .tickFormat((i) => truncate(data.cols[i], 10)),
  ).call((g) => g.select('.domain').remove());
  drawAxis(
    f.plot,
    axisLeft(y)
      .tickSize(0)
      .tickPadding(6)
      .tickFormat((i) => truncate(data.rows[i])),
  ).call((g) => g.select('.domain').remove());

  const cells = f.plot.append('g').attr('class', 'cells');
  data.rows.forEach((row, r) => {
    data.cols.forEach((col, c) => {
      const v = data.values[r]?.[c] ?? NaN;
      cells
        .append('rect')
        .attr('class', 'cell')
        .attr('data-row', row)
        .attr('data-col', col)
        .attr('x', x(c)!)
        .attr('y', y(r)!)
        .attr('width', x.bandwidth())
        .attr('height', y.bandwidth())
        .attr('fill', Number.isFinite(v) ? color(v) : MISSING)
        .attr('stroke', '#fff')
        .attr('stroke-width', 0.5)
        .append('title')
        .text(`${row} × ${col}: ${Number.isFinite(v) ? fmt(v, 3) : 'missing'}`);
    });
  });

  const legendHeight = Math.min(160, Math.max(60, f.innerHeight));
  const ly = scaleLinear().domain([-m, m]).range([legendHeight, 0]);
  const legend = f.plot
    .append('g')
    .attr('class', 'color-legend')
    .attr('transform', `translate(${f.innerWidth + 10},0)`);
  const step = legendHeight / LEGEND_STEPS;
  for (let i = 0; i < LEGEND_STEPS; i++) {
    const v = -m + ((i + 0.5) * 2 * m) / LEGEND_STEPS;
    legend
      .append('rect')
      .attr('x', 0)
      .attr('y', legendHeight - (i + 1) * step)
      .attr('width', 12)
      .attr('height', step + 0.5)
      .attr('fill', color(v));
  }
  drawAxis(legend, axisRight(ly).ticks(5, '~g'), 'translate(12,0)');
  legend
    .append('text')
    .attr('class', 'legend-title')
    .attr('x', 0)
    .attr('y', -10)
    .attr('fill', 'currentColor')
    .text(data.legendTitle ?? 'value');
  if (small)
    f.plot
      .append('text')
      .attr('class', 'scale-note')
      .attr('x', 0)
      .attr('y', f.innerHeight + 18)
      .attr('fill', MUTED)
      .text(
        big === 0
          ? `All values are 0 (colour scale ±${fmtSmall(m)}).`
          : `All |values| ≤ ${fmtSmall(big)}: near 0 on this ±${fmtSmall(m)} scale.`,
      );
  axisLabel(f.plot, data.colTitle ?? 'column', f.innerWidth / 2, -28);
  axisLabel(f.plot, data.rowTitle ?? 'row', -f.margin.left + 12, f.innerHeight / 2, true);
  return f.svg.node()!;
}
