import { axisBottom, axisLeft, scaleLinear } from 'd3';
import { createFrame, drawXYAxes, fmt, truncate } from './frame';
import { drawLegend } from './palette';
import { finiteExtent, seriesColor } from './series';
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
 * labelled with the LLM's name.
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
  const x = scaleLinear()
    .domain(
      finiteExtent(
        all.map((p) => p.x),
        [0, 1],
      ),
    )
    .nice()
    // Inset, so points at the ends of the range clear the axes.
    .range([8, f.innerWidth - 8]);
  const y = scaleLinear()
    .domain(
      finiteExtent(
        all.map((p) => p.y),
        [-1, 1],
      ),
    )
    .nice()
    .range([f.innerHeight, 0]);

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
      // Labels of points near the right edge go to their left, inside the plot.
      const left = x(p.x) > f.innerWidth * 0.75;
      if (i === 0)
        g.append('text')
          .attr('class', 'point-label')
          .attr('x', x(p.x) + (left ? -6 : 6))
          .attr('text-anchor', left ? 'end' : 'start')
          .attr('y', y(p.y))
          .attr('dy', '0.32em')
          .attr('fill', 'currentColor')
          .attr('font-size', 10)
          .text(truncate(p.label, 18));
    }
  });

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
