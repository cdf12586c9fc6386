import { axisBottom, axisLeft, line, range, scaleLinear } from 'd3';
import { axisLabel, createFrame, drawAxis, fmt, MUTED } from './frame';
import type { ChartOptions } from './types';

export interface GatePoint {
  /** x = θ − b̃. */
  x: number;
  g: number;
  llm: string;
}

export interface GateData {
  w0: number;
  kappa: number;
  points?: GatePoint[];
}

/** Fallback gate G = σ(w0 − κ·x) at each x (paper eq. 7 with x = θ − b̃). */
export function gateCurve(w0: number, kappa: number, xs: number[]): number[] {
  return xs.map((x) => 1 / (1 + Math.exp(-(w0 - kappa * x))));
}

const DOMAIN: [number, number] = [-6, 6];
const CURVE_COLOR = '#4e79a7';

/** The difficulty-gated fallback weight G against θ − b̃, with optional sampled (LLM, item) points. */
export function gateChart(data: GateData, opts: ChartOptions = {}): SVGSVGElement {
  const f = createFrame(opts, {
    width: 480,
    height: 280,
    title: `Fallback gate G = σ(w0 − κ(θ − b̃)), w0 = ${fmt(data.w0)}, κ = ${fmt(data.kappa)}`,
  });
  const x = scaleLinear().domain(DOMAIN).range([0, f.innerWidth]);
  const y = scaleLinear().domain([0, 1]).range([f.innerHeight, 0]);

  drawAxis(f.plot, axisBottom(x).ticks(6), `translate(0,${f.innerHeight})`);
  drawAxis(f.plot, axisLeft(y).ticks(5));
  axisLabel(f.plot, 'θ − b̃ (ability minus item difficulty)', f.innerWidth / 2, f.innerHeight + 32);
  axisLabel(f.plot, 'Fallback weight G', -36, f.innerHeight / 2, true);

  // G = ½ where w0 = κx: the ability gap at which fallback and knowledge weigh equally.
  const mid = data.kappa > 0 ? data.w0 / data.kappa : NaN;
  if (mid >= DOMAIN[0] && mid <= DOMAIN[1]) {
    f.plot
      .append('line')
      .attr('class', 'midpoint')
      .attr('x1', x(mid))
      .attr('x2', x(mid))
      .attr('y1', f.innerHeight)
      .attr('y2', y(0.5))
      .attr('stroke', MUTED)
      .attr('stroke-dasharray', '4 3')
      .append('title')
      .text(`G = 0.5 at θ − b̃ = ${fmt(mid)}`);
  }

  const points = f.plot.append('g').attr('class', 'points').attr('fill', '#f28e2b');
  for (const p of data.points ?? []) {
    if (!Number.isFinite(p.x) || !Number.isFinite(p.g)) continue;
    points
      .append('circle')
      .attr('data-llm', p.llm)
      .attr('cx', x(Math.max(DOMAIN[0], Math.min(DOMAIN[1], p.x))))
      .attr('cy', y(p.g))
      .attr('r', 2.5)
      .attr('fill-opacity', 0.5)
      .append('title')
      .text(`${p.llm}: θ − b̃ = ${fmt(p.x)}, G = ${fmt(p.g, 3)}`);
  }

  const xs = range(121).map((i) => DOMAIN[0] + (i * (DOMAIN[1] - DOMAIN[0])) / 120);
  const gs = gateCurve(data.w0, data.kappa, xs);
  f.plot
    .append('path')
    .attr('class', 'gate')
    .attr('fill', 'none')
    .attr('stroke', CURVE_COLOR)
    .attr('stroke-width', 2.5)
    .attr(
      'd',
      line<number>()
        .x((i) => x(xs[i]))
        .y((i) => y(gs[i]))(xs.map((_, i) => i)),
    )
    .append('title')
    .text(`G = σ(${fmt(data.w0)} − ${fmt(data.kappa)}·(θ − b̃))`);
  return f.svg.node()!;
}
