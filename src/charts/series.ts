import { scaleLinear, schemeTableau10, type ScaleLinear } from 'd3';
import { createFrame, type Frame, type FrameDefaults, type Parent } from './frame';
import { drawLegend, type LegendItem } from './palette';
import type { ChartOptions } from './types';

/** Colour of the i-th series (a model or a fit); Tableau 10, as the option colours. */
export function seriesColor(i: number): string {
  return schemeTableau10[((i % 10) + 10) % 10];
}

/** [min, max] of the finite values, widened to a non-empty interval; `fallback` when there are none. */
export function finiteExtent(values: number[], fallback: [number, number]): [number, number] {
  const v = values.filter(Number.isFinite);
  if (v.length === 0) return fallback;
  const lo = Math.min(...v);
  const hi = Math.max(...v);
  if (lo < hi) return [lo, hi];
  const pad = Math.abs(lo) > 0 ? Math.abs(lo) * 0.1 : 1;
  return [lo - pad, hi + pad];
}

/**
 * A scatter's scales over the frame: x and y each a nice domain around its
 * finite values (none: x [0, 1], y [−1, 1]); x inset 8 px, so points at the
 * ends of its range clear the axes.
 */
export function scatterScales(
  f: Frame,
  xs: number[],
  ys: number[],
): { x: ScaleLinear<number, number>; y: ScaleLinear<number, number> } {
  const x = scaleLinear()
    .domain(finiteExtent(xs, [0, 1]))
    .nice()
    .range([8, f.innerWidth - 8]);
  const y = scaleLinear()
    .domain(finiteExtent(ys, [-1, 1]))
    .nice()
    .range([f.innerHeight, 0]);
  return { x, y };
}

/** A mean ± sd whisker from (x1, y1) to (x2, y2) with end caps across it. */
export function whisker(
  parent: Parent,
  [x1, y1]: [number, number],
  [x2, y2]: [number, number],
  color: string,
  cap = 3,
) {
  const g = parent.append('g').attr('class', 'whisker').attr('stroke', color);
  g.append('line').attr('x1', x1).attr('y1', y1).attr('x2', x2).attr('y2', y2);
  const vertical = x1 === x2;
  for (const [x, y] of [
    [x1, y1],
    [x2, y2],
  ])
    g.append('line')
      .attr('x1', vertical ? x - cap : x)
      .attr('x2', vertical ? x + cap : x)
      .attr('y1', vertical ? y : y - cap)
      .attr('y2', vertical ? y : y + cap);
  return g;
}

/** A 640-px frame with room above the plot for a legend of `series` rows. */
export function createSeriesFrame(
  opts: ChartOptions,
  d: { height: number; title: string; series: number; right: number },
): Frame {
  const margin: FrameDefaults['margin'] = {
    top: 20 + 16 * Math.max(1, d.series),
    left: 52,
    right: d.right,
  };
  return createFrame(opts, { width: 640, height: d.height, title: d.title, margin });
}

/** The legend of a series frame, above the plot. */
export function drawSeriesLegend(f: Frame, items: LegendItem[], maxChars?: number) {
  return drawLegend(f.plot, items, 0, -f.margin.top + 14, maxChars ? { maxChars } : {});
}

/** The group of one series (`.series`, `data-model`). */
export function seriesGroup(parent: Parent, model: string) {
  return parent.append('g').attr('class', 'series').attr('data-model', model);
}

/** A 2-px unfilled path of class `cls` through `d`. */
export function linePath(parent: Parent, cls: string, color: string, d: string | null) {
  return parent
    .append('path')
    .attr('class', cls)
    .attr('fill', 'none')
    .attr('stroke', color)
    .attr('stroke-width', 2)
    .attr('d', d);
}

/**
 * A dot at (cx, cy) with a tooltip; `attrs` (class, data-*) come first, then
 * position, radius and fill.
 */
export function dot(
  parent: Parent,
  attrs: Record<string, string | number>,
  [cx, cy]: [number, number],
  r: number,
  fill: string,
) {
  const c = parent.append('circle');
  for (const [k, v] of Object.entries(attrs)) c.attr(k, v);
  return c.attr('cx', cx).attr('cy', cy).attr('r', r).attr('fill', fill);
}
