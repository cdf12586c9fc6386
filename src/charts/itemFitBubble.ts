import { axisBottom, axisLeft, max, min, scaleLinear, scaleSqrt } from 'd3';
import { createFrame, drawXYAxes, fmt, guideLine, MUTED } from './frame';
import type { ChartOptions } from './types';

export interface ItemFitPoint {
  id: string;
  infit: number;
  outfit: number;
  /** Observed cells (the bubble's area). */
  n: number;
  flagged: boolean;
}

export interface ItemFitBubbleData {
  points: ItemFitPoint[];
  /** Mean-square bounds drawn as dashed guides (e.g. 0.7 and 1.3). */
  lower: number;
  upper: number;
}

/** Infit (x) against outfit (y) mean squares per item, bubble area ∝ cells, flagged items red. */
export function itemFitBubbleChart(
  data: ItemFitBubbleData,
  opts: ChartOptions = {},
): SVGSVGElement {
  const f = createFrame(opts, {
    width: 480,
    height: 360,
    title: 'Item fit: infit against outfit mean squares',
  });
  const pts = data.points.filter((p) => Number.isFinite(p.infit) && Number.isFinite(p.outfit));
  const lo = Math.min(data.lower, min(pts, (p) => Math.min(p.infit, p.outfit)) ?? 1) * 0.95;
  const hiX = Math.max(data.upper, max(pts, (p) => p.infit) ?? 1) * 1.05;
  const hiY = Math.max(data.upper, max(pts, (p) => p.outfit) ?? 1) * 1.05;
  const x = scaleLinear().domain([lo, hiX]).nice().range([0, f.innerWidth]);
  const y = scaleLinear().domain([lo, hiY]).nice().range([f.innerHeight, 0]);
  const r = scaleSqrt()
    .domain([0, max(pts, (p) => p.n) || 1])
    .range([0, 7]);
  drawXYAxes(
    f,
    axisBottom(x).ticks(6),
    axisLeft(y).ticks(6),
    'Infit mean square',
    'Outfit mean square',
  );
  const guides = f.plot.append('g').attr('class', 'guides').attr('stroke', MUTED);
  for (const v of [data.lower, 1, data.upper]) {
    const dash = v === 1 ? null : '4 3';
    guideLine(guides, [x(v), 0], [x(v), f.innerHeight], dash);
    guideLine(guides, [0, y(v)], [f.innerWidth, y(v)], dash);
  }
  const dots = f.plot.append('g').attr('class', 'points');
  for (const p of pts)
    dots
      .append('circle')
      .attr('data-item', p.id)
      .attr('data-flagged', p.flagged ? 'true' : 'false')
      .attr('cx', x(p.infit))
      .attr('cy', y(p.outfit))
      .attr('r', Math.max(2, r(p.n)))
      .attr('fill', p.flagged ? '#d62728' : '#4e79a7')
      .attr('fill-opacity', 0.55)
      .append('title')
      .text(`${p.id}: infit ${fmt(p.infit, 3)}, outfit ${fmt(p.outfit, 3)}, n ${p.n}`);
  return f.svg.node()!;
}
