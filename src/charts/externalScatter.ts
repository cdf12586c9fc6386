import { axisBottom, axisLeft } from 'd3';
import { createFrame, drawXYAxes, fmt, labelWidth, truncate } from './frame';
import { drawLegend } from './palette';
import { scatterScales, seriesColor } from './series';
import type { ChartOptions } from './types';

export interface ExternalPoint {
  /** The LLM's name in our data. */
  label: string;
  /** External score (e.g. Arena score). */
  x: number;
  /** θ in this series' fit. */
  y: number;
}

export interface ExternalSeries {
  /** The fit (its model name). */
  name: string;
  /** Spearman ρ of this series, shown in the legend. */
  rho?: number;
  points: ExternalPoint[];
}

export interface ExternalScatterData {
  xLabel: string;
  yLabel?: string;
  series: ExternalSeries[];
}

/**
 * External validity (paper Table 2) as a scatter: θ of each matched LLM
 * against its external score, one colour per fit; the first fit's points are
 * labelled with the LLM's name where the name fits (placeLabels).
 */
export function externalScatterChart(
  data: ExternalScatterData,
  opts: ChartOptions = {},
): SVGSVGElement {
  const f = createFrame(opts, {
    width: 640,
    height: 380,
    title: `Ability θ against ${data.xLabel}`,
    margin: { top: 20 + 16 * Math.max(1, data.series.length), right: 24, bottom: 40, left: 52 },
  });
  const all = data.series.flatMap((s) => s.points);
  const { x, y } = scatterScales(
    f,
    all.map((p) => p.x),
    all.map((p) => p.y),
  );

  drawXYAxes(
    f,
    axisBottom(x).ticks(6),
    axisLeft(y).ticks(6),
    data.xLabel,
    data.yLabel ?? 'Ability θ',
    { xLabelY: 34 },
  );

  data.series.forEach((s, i) => {
    const color = seriesColor(i);
    const g = f.plot.append('g').attr('class', 'series').attr('data-series', s.name);
    for (const p of s.points) {
      if (!Number.isFinite(p.x) || !Number.isFinite(p.y)) continue;
      const pt = g
        .append('circle')
        .attr('class', 'point')
        .attr('data-llm', p.label)
        .attr('cx', x(p.x))
        .attr('cy', y(p.y))
        .attr('r', 4)
        .attr('fill', color)
        .attr('fill-opacity', 0.85)
        .attr('stroke', '#fff');
      pt.append('title').text(
        `${p.label}: ${data.xLabel} ${fmt(p.x, 1)}, θ (${s.name}) ${fmt(p.y)}`,
      );
    }
  });

  // The first fit's points get their LLM's name where it fits: beside, above or below
  // the point, clear of every other label and point and inside the plot (greedy, in
  // order of the point's distance from the centre, so the extremes are labelled
  // first). A name that fits nowhere is left to the point's tooltip.
  const first = data.series[0]?.points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
  if (first?.length) {
    const pts = data.series.flatMap((s) =>
      s.points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y)),
    );
    const dots = pts.map((p) => box(x(p.x) - 5, y(p.y) - 5, 10, 10));
    const placed = placeLabels(
      first.map((p) => ({ x: x(p.x), y: y(p.y), text: truncate(p.label, 18) })),
      dots,
      // The plot, and a little of the margins (not the legend's or the axes' labels).
      box(-4, -10, f.innerWidth + f.margin.right - 2, f.innerHeight + 6),
    );
    const labels = f.plot.append('g').attr('class', 'point-labels');
    for (const l of placed)
      labels
        .append('text')
        .attr('class', 'point-label')
        .attr('x', l.x)
        .attr('y', l.y)
        .attr('text-anchor', l.anchor)
        .attr('dy', '0.32em')
        .attr('fill', 'currentColor')
        .attr('font-size', LABEL_SIZE)
        .text(l.text);
  }

  drawLegend(
    f.plot,
    data.series.map((s, i) => ({
      label: s.rho === undefined ? s.name : `${s.name} (ρ = ${fmt(s.rho, 2)})`,
      color: seriesColor(i),
      shape: 'rect' as const,
    })),
    0,
    -f.margin.top + 14,
    { maxChars: 40 },
  );
  return f.svg.node()!;
}

/** Point labels' font size (px). */
const LABEL_SIZE = 12;

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
export const box = (x: number, y: number, w: number, h: number): Box => ({
  x0: x,
  y0: y,
  x1: x + w,
  y1: y + h,
});
const meets = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

export interface PlacedLabel {
  text: string;
  x: number;
  y: number;
  anchor: 'start' | 'end' | 'middle';
}

/**
 * Greedy label placement: each point (most extreme first) tries right, left,
 * above and below; the first spot whose box stays inside `bounds` and
 * meets no placed label and no other point's dot wins; none: no label.
 */
export function placeLabels(
  points: { x: number; y: number; text: string }[],
  dots: Box[],
  bounds: Box,
): PlacedLabel[] {
  const cx = (bounds.x0 + bounds.x1) / 2;
  const cy = (bounds.y0 + bounds.y1) / 2;
  const order = points
    .map((p, k) => ({ p, k, d: Math.hypot(p.x - cx, p.y - cy) }))
    .sort((a, b) => b.d - a.d);
  const taken: Box[] = [];
  const out: PlacedLabel[] = [];
  const h = LABEL_SIZE * 1.2;
  for (const { p, k } of order) {
    const w = labelWidth(p.text, LABEL_SIZE);
    const spots: [PlacedLabel, Box][] = [
      [{ text: p.text, x: p.x + 7, y: p.y, anchor: 'start' }, box(p.x + 7, p.y - h / 2, w, h)],
      [{ text: p.text, x: p.x - 7, y: p.y, anchor: 'end' }, box(p.x - 7 - w, p.y - h / 2, w, h)],
      [
        { text: p.text, x: p.x, y: p.y - 13, anchor: 'middle' },
        box(p.x - w / 2, p.y - 13 - h / 2, w, h),
      ],
      [
        { text: p.text, x: p.x, y: p.y + 13, anchor: 'middle' },
        box(p.x - w / 2, p.y + 13 - h / 2, w, h),
      ],
    ];
    for (const [label, b] of spots) {
      if (b.x0 < bounds.x0 || b.y0 < bounds.y0 || b.x1 > bounds.x1 || b.y1 > bounds.y1) continue;
      if (taken.some((t) => meets(t, b))) continue;
      if (dots.some((d, q) => q !== k && meets(d, b))) continue;
      taken.push(b);
      out.push(label);
      break;
    }
  }
  return out;
}
