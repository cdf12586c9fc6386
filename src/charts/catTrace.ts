import { area, axisBottom, axisLeft, line, max, scaleLinear } from 'd3';
import { createFrame, drawXYAxes, fmt, hline, MUTED } from './frame';
import { dot, linePath } from './series';
import type { ChartOptions } from './types';

/** The estimate after the n-th item of an adaptive test. */
export interface CatTraceStep {
  item: string;
  theta: number;
  se: number;
}

export interface CatTraceData {
  /** In the order the items were given. */
  steps: CatTraceStep[];
  /** The estimate before any item (the prior: θ = 0, SE = 1); drawn at n = 0 when given. */
  start?: { theta: number; se: number };
  /** θ from the LLM's full responses, for comparison (a dashed line). */
  reference?: { theta: number; label: string };
}

const THETA_COLOR = '#4e79a7';
const REF_COLOR = '#e15759';

/** Points of the trace as (n, θ, SE), the start at n = 0 first when given. */
export function tracePoints(data: CatTraceData): { n: number; theta: number; se: number }[] {
  const pts = data.steps.map((s, i) => ({ n: i + 1, theta: s.theta, se: s.se }));
  return data.start ? [{ n: 0, ...data.start }, ...pts] : pts;
}

/**
 * θ of an adaptive test against the number of items given, with a ±SE band:
 * one `circle.step` per item (`data-item`, `data-n`), a line through them and,
 * when given, the full-data θ as a dashed reference line.
 */
export function catTraceChart(data: CatTraceData, opts: ChartOptions = {}): SVGSVGElement {
  const f = createFrame(opts, {
    width: 640,
    height: 300,
    title: `Adaptive test: θ (±SE) after each of ${data.steps.length} items`,
    margin: { right: 24 },
  });
  const pts = tracePoints(data).filter((p) => Number.isFinite(p.theta));
  const se = (p: { se: number }) => (Number.isFinite(p.se) ? p.se : 0);
  const ref = data.reference && Number.isFinite(data.reference.theta) ? data.reference : null;
  const ys = pts.flatMap((p) => [p.theta - se(p), p.theta + se(p)]);
  if (ref) ys.push(ref.theta);
  const lo = Math.min(-1, ...ys);
  const hi = Math.max(1, ...ys);
  const x = scaleLinear()
    .domain([data.start ? 0 : 1, Math.max(data.start ? 1 : 2, max(pts, (p) => p.n) ?? 1)])
    .range([0, f.innerWidth]);
  const y = scaleLinear().domain([lo, hi]).nice().range([f.innerHeight, 0]);

  drawXYAxes(
    f,
    axisBottom(x).ticks(Math.min(10, x.domain()[1] - x.domain()[0])),
    axisLeft(y).ticks(6),
    'Items given',
    'Ability θ (±SE)',
  );

  f.plot
    .append('path')
    .attr('class', 'band')
    .attr('fill', THETA_COLOR)
    .attr('fill-opacity', 0.18)
    .attr(
      'd',
      area<(typeof pts)[number]>()
        .x((p) => x(p.n))
        .y0((p) => y(p.theta - se(p)))
        .y1((p) => y(p.theta + se(p)))(pts),
    )
    .append('title')
    .text('θ ± SE');
  const path = line<(typeof pts)[number]>()
    .x((p) => x(p.n))
    .y((p) => y(p.theta));
  linePath(f.plot, 'theta', THETA_COLOR, path(pts));
  if (ref) {
    const g = f.plot.append('g').attr('class', 'reference');
    hline(f, g, y(ref.theta), REF_COLOR, '5 3');
    g.append('text')
      .attr('x', f.innerWidth - 4)
      .attr('y', y(ref.theta) - 4)
      .attr('text-anchor', 'end')
      .attr('fill', REF_COLOR)
      .text(`${ref.label}: θ = ${fmt(ref.theta)}`);
  }
  const steps = f.plot.append('g').attr('class', 'steps');
  data.steps.forEach((s, i) => {
    if (!Number.isFinite(s.theta)) return;
    const attrs = { class: 'step', 'data-item': s.item, 'data-n': i + 1 };
    dot(steps, attrs, [x(i + 1), y(s.theta)], 3, THETA_COLOR)
      .attr('stroke', '#fff')
      .append('title')
      .text(`${i + 1}. ${s.item}: θ = ${fmt(s.theta)} ± ${fmt(s.se)}`);
  });
  if (data.steps.length === 0)
    f.plot
      .append('text')
      .attr('x', f.innerWidth / 2)
      .attr('y', f.innerHeight / 2)
      .attr('text-anchor', 'middle')
      .attr('fill', MUTED)
      .text('No items given yet');
  return f.svg.node()!;
}
