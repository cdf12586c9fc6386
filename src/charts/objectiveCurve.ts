import { axisBottom, axisLeft, extent, line, scaleLinear } from 'd3';
import { axisLabel, createFrame, drawAxis, fmt, yAxisTitle } from './frame';
import type { ChartOptions } from './types';

export interface ObjectivePoint {
  step: number;
  objective: number;
}

/** Keeps at most `maxPoints` evenly strided finite points, always including the last. */
export function thinSeries(data: ObjectivePoint[], maxPoints: number): ObjectivePoint[] {
  const finite = data.filter((d) => Number.isFinite(d.step) && Number.isFinite(d.objective));
  if (finite.length <= maxPoints) return finite;
  const stride = Math.ceil(finite.length / Math.max(2, maxPoints - 1));
  const out = finite.filter((_, i) => i % stride === 0);
  if (out.at(-1) !== finite.at(-1)) out.push(finite.at(-1)!);
  return out;
}

/** Below this height the chart is a bare sparkline; from it on it has titled axes. */
const AXES_FROM_HEIGHT = 100;

/**
 * Objective-vs-step curve for the live progress panel: one path and an end
 * dot, thinned to ~1 point per pixel, so redrawing every tick stays cheap. At
 * a height of 100 px or more it gets titled axes (step, objective).
 */
export function objectiveCurveChart(
  data: ObjectivePoint[],
  opts: ChartOptions = {},
): SVGSVGElement {
  const axes = (opts.height ?? 48) >= AXES_FROM_HEIGHT;
  const f = createFrame(opts, {
    width: 240,
    height: 48,
    title: 'Objective by step',
    margin: axes
      ? { top: 8, right: 10, bottom: 34, left: 58 }
      : { top: 4, right: 6, bottom: 4, left: 4 },
  });
  const pts = thinSeries(data, Math.max(2, Math.round(f.innerWidth)));
  const last = pts.at(-1);
  if (!opts.title && last) {
    const t = `Objective ${fmt(last.objective, 4)} at step ${last.step}`;
    f.svg.attr('aria-label', t).select('title').text(t);
  }
  const [s0 = 0, s1 = 1] = extent(pts, (d) => d.step);
  const [o0 = 0, o1 = 1] = extent(pts, (d) => d.objective);
  const x = scaleLinear()
    .domain(s0 < s1 ? [s0, s1] : [s0 - 1, s0 + 1])
    .range([0, f.innerWidth]);
  const y = scaleLinear()
    .domain(o0 < o1 ? [o0, o1] : [o0 - 1, o0 + 1])
    .range([f.innerHeight, 0]);
  if (axes) {
    drawAxis(f.plot, axisBottom(x).ticks(4), `translate(0,${f.innerHeight})`);
    // Objectives are in the thousands and move by fractions late in a fit: decimals only
    // where the span needs them (",~f"), and the title clear of the widest label.
    const yt = y.ticks(3);
    const yg = drawAxis(f.plot, axisLeft(y).tickValues(yt).tickFormat(y.tickFormat(3, ',~f')));
    axisLabel(f.plot, 'Optimiser step', f.innerWidth / 2, f.innerHeight + 30);
    yAxisTitle(f, yg, 'Objective');
  }
  f.plot
    .append('path')
    .attr('class', 'objective')
    .attr('fill', 'none')
    .attr('stroke', '#4e79a7')
    .attr('stroke-width', 1.5)
    .attr('stroke-linejoin', 'round')
    .attr(
      'd',
      line<ObjectivePoint>()
        .x((d) => x(d.step))
        .y((d) => y(d.objective))(pts),
    );
  if (last) {
    f.plot
      .append('circle')
      .attr('class', 'last')
      .attr('cx', x(last.step))
      .attr('cy', y(last.objective))
      .attr('r', 2.5)
      .attr('fill', '#4e79a7');
  }
  return f.svg.node()!;
}
