import { axisBottom, axisLeft, line, range, scaleLinear } from 'd3';
import { axisLabel, createFrame, drawAxis, fmt, MUTED } from './frame';
import { drawLegend } from './palette';
import type { ChartOptions } from './types';
import type { GateForm } from '../core/model/gate';

export interface GatePoint {
  /** x = θ − b̃ (eq. 10's gate) or f_i(θ) (the margin gate). */
  x: number;
  g: number;
  llm: string;
}

export interface GateData {
  w0: number;
  kappa: number;
  /** The fit's gate form (core/model/gate.ts); absent: eq. 10's. */
  form?: GateForm;
  points?: GatePoint[];
}

/** Fallback gate G = σ(w0 − κ·x) at each x (paper eq. 7 with x = θ − b̃). */
export function gateCurve(w0: number, kappa: number, xs: number[]): number[] {
  return xs.map((x) => 1 / (1 + Math.exp(-(w0 - kappa * x))));
}

const DOMAIN: [number, number] = [-6, 6];
const CURVE_COLOR = '#4e79a7';
const POINT_COLOR = '#f28e2b';

/** One arrow marker per side for the sampled cells beyond the axis, with their count. */
function drawOffScale(
  f: ReturnType<typeof createFrame>,
  beyond: { lo: number; hi: number },
  xName: string,
): void {
  for (const side of ['lo', 'hi'] as const) {
    const n = beyond[side];
    if (!n) continue;
    const at = side === 'lo' ? 0 : f.innerWidth;
    const dir = side === 'lo' ? -1 : 1;
    const m = f.plot
      .append('g')
      .attr('class', 'off-scale')
      .attr('data-side', side)
      .attr('transform', `translate(${at},${f.innerHeight - 10})`);
    m.append('path')
      .attr('d', `M0,-5L${8 * dir},0L0,5Z`)
      .attr('fill', POINT_COLOR);
    m.append('text')
      .attr('x', -4 * dir)
      .attr('y', -8)
      .attr('text-anchor', side === 'lo' ? 'start' : 'end')
      .attr('fill', MUTED)
      .text(`${n} beyond ${side === 'lo' ? '−6' : '+6'}`);
    m.append('title').text(`${n} sampled cells with ${xName} ${side === 'lo' ? '< −6' : '> +6'}`);
  }
}

/** The difficulty-gated fallback weight G against θ − b̃, with optional sampled (LLM, item) points. */
export function gateChart(data: GateData, opts: ChartOptions = {}): SVGSVGElement {
  const margin = data.form === 'margin';
  // What x is: the margin f_i(θ) (eq. 8) or eq. 10's θ − b̃.
  const xName = margin ? 'f(θ)' : 'θ − b̃';
  const f = createFrame(opts, {
    width: 640,
    height: 320,
    margin: { right: 190 },
    title: `Fallback gate G = σ(w0 − κ${margin ? '·f(θ)' : '(θ − b̃)'}), w0 = ${fmt(data.w0)}, κ = ${fmt(data.kappa)}`,
  });
  const x = scaleLinear().domain(DOMAIN).range([0, f.innerWidth]);
  const y = scaleLinear().domain([0, 1]).range([f.innerHeight, 0]);

  drawAxis(f.plot, axisBottom(x).ticks(6), `translate(0,${f.innerHeight})`);
  drawAxis(f.plot, axisLeft(y).ticks(5));
  axisLabel(
    f.plot,
    margin
      ? "f(θ) (the item's correct-vs-incorrect log-odds margin at the LLM's θ)"
      : 'θ − b̃ (ability minus item difficulty)',
    f.innerWidth / 2,
    f.innerHeight + 32,
  );
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
      .text(`G = 0.5 at ${xName} = ${fmt(mid)}`);
  }

  // Cells beyond the axis (items far easier or harder than an LLM) are not piled on
  // its edge as if they sat there: they become one arrow marker per side, with a count.
  const points = f.plot.append('g').attr('class', 'points').attr('fill', POINT_COLOR);
  const beyond = { lo: 0, hi: 0 };
  for (const p of data.points ?? []) {
    if (!Number.isFinite(p.x) || !Number.isFinite(p.g)) continue;
    if (p.x < DOMAIN[0] || p.x > DOMAIN[1]) {
      beyond[p.x < DOMAIN[0] ? 'lo' : 'hi']++;
      continue;
    }
    points
      .append('circle')
      .attr('data-llm', p.llm)
      .attr('cx', x(p.x))
      .attr('cy', y(p.g))
      .attr('r', 2.5)
      .attr('fill-opacity', 0.5)
      .append('title')
      .text(`${p.llm}: ${xName} = ${fmt(p.x)}, G = ${fmt(p.g, 3)}`);
  }
  drawOffScale(f, beyond, xName);

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

  const nBeyond = beyond.lo + beyond.hi;
  drawLegend(
    f.plot,
    [
      { label: 'G, the fitted gate', color: CURVE_COLOR, shape: 'line', emphasis: true },
      { label: 'an observed cell (LLM, item)', color: POINT_COLOR, shape: 'dot' },
      ...(nBeyond
        ? [
            {
              label: `cells beyond the axis (${nBeyond})`,
              color: POINT_COLOR,
              shape: 'triangle' as const,
            },
          ]
        : []),
    ],
    f.innerWidth + 16,
    8,
    { maxChars: 30 },
  );
  // A gate that stays shut looks like an empty chart: say so.
  if (Math.max(...gs) < 0.01)
    f.plot
      .append('text')
      .attr('class', 'gate-note')
      .attr('x', f.innerWidth / 2)
      .attr('y', y(0.5))
      .attr('text-anchor', 'middle')
      .attr('fill', MUTED)
      .text(`G < 0.01 over the whole axis: this fit uses almost no fallback.`);
  return f.svg.node()!;
}
