import { extent, scaleLinear, type ScaleLinear } from 'd3';
import { createFrame, labelMargin, MUTED, truncate, type Frame, type Parent } from './frame';
import type { ChartOptions } from './types';

/**
 * Charts of one row per LLM ranked by θ (thetaRanking, scoredLlms): a frame
 * sized to the rows with the names on the left, a θ scale over θ ± SE, the
 * zero line, and each row's name and dot-and-whisker.
 */

/** Height of one LLM row in px. */
export const LLM_ROW = 16;

/** y of the centre of row `i`. */
export const rowY = (i: number) => i * LLM_ROW + LLM_ROW / 2;

/**
 * A 640-px labelled group (not an image: its rows are focusable) sized to
 * `ids.length` rows, with `top` px above them for the axes.
 */
export function createLlmRowsFrame(
  opts: ChartOptions,
  d: { ids: string[]; title: string; top: number; bottom: number },
): Frame {
  const margin = { top: d.top, right: 16, bottom: d.bottom, left: labelMargin(d.ids) };
  const f = createFrame(opts, {
    width: 640,
    height: margin.top + margin.bottom + Math.max(1, d.ids.length) * LLM_ROW,
    title: d.title,
    margin,
  });
  f.svg.attr('role', 'group');
  return f;
}

/** A linear θ scale over every finite θ ± SE, niced, onto `range`. */
export function thetaScale(
  rows: readonly { theta: number; se: number }[],
  range: [number, number],
): ScaleLinear<number, number> {
  const [lo = -1, hi = 1] = extent(
    rows.flatMap((r) => [r.theta - (r.se || 0), r.theta + (r.se || 0)]).filter(Number.isFinite),
  );
  return scaleLinear()
    .domain(lo < hi ? [lo, hi] : [lo - 1, hi + 1])
    .nice()
    .range(range);
}

/** A dotted vertical line at θ = 0 down `n` rows, when the scale spans 0. */
export function zeroLine(parent: Parent, x: ScaleLinear<number, number>, n: number): void {
  if (!(x.domain()[0] < 0 && x.domain()[1] > 0)) return;
  parent
    .append('line')
    .attr('class', 'zero')
    .attr('x1', x(0))
    .attr('x2', x(0))
    .attr('y2', n * LLM_ROW)
    .attr('stroke', MUTED)
    .attr('stroke-dasharray', '2 3');
}

/**
 * The group of row `i` (`attrs` first: class, data-*, ARIA), with `label` as
 * its tooltip.
 */
export function llmRow(
  body: Parent,
  i: number,
  attrs: Record<string, string | number>,
  label: string,
) {
  const row = body.append('g');
  for (const [k, v] of Object.entries(attrs)) row.attr(k, v);
  row.attr('transform', `translate(0,${rowY(i)})`);
  row.append('title').text(label);
  return row;
}

/** The LLM's name, truncated, right-aligned left of the plot. */
export function rowName(row: Parent, id: string, fill = 'currentColor', bold = false) {
  const t = row
    .append('text')
    .attr('x', -6)
    .attr('dy', '0.32em')
    .attr('text-anchor', 'end')
    .attr('fill', fill);
  if (bold) t.attr('font-weight', 'bold');
  return t.text(truncate(id));
}

/** θ ± SE as a whisker and a dot (a non-finite SE draws no whisker width). */
export function thetaWhisker(
  row: Parent,
  x: ScaleLinear<number, number>,
  r: { theta: number; se: number },
  style: { color: string; strokeWidth: number; radius: number },
): void {
  const se = Number.isFinite(r.se) ? r.se : 0;
  row
    .append('line')
    .attr('class', 'whisker')
    .attr('x1', x(r.theta - se))
    .attr('x2', x(r.theta + se))
    .attr('stroke', style.color)
    .attr('stroke-width', style.strokeWidth);
  row
    .append('circle')
    .attr('class', 'theta')
    .attr('cx', x(r.theta))
    .attr('r', style.radius)
    .attr('fill', style.color);
}
