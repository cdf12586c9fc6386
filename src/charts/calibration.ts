import { area, axisBottom, axisLeft, line, max, scaleLinear } from 'd3';
import { drawXYAxes, fmt } from './frame';
import {
  createSeriesFrame,
  dot,
  drawSeriesLegend,
  finiteExtent,
  linePath,
  seriesColor,
  seriesGroup,
} from './series';
import type { ChartOptions } from './types';

export interface CalibrationPoint {
  /** LLMs the bank was calibrated on. */
  n: number;
  /** Axis label of n ('all (13)' for the whole pool). */
  label: string;
  mean: number;
  sd: number;
}

export interface CalibrationSeries {
  model: string;
  points: CalibrationPoint[];
}

export interface CalibrationData {
  series: CalibrationSeries[];
  /** The plotted metric (default: held-out binary log-loss). */
  yLabel?: string;
}

/**
 * Calibrating with fewer LLMs (paper Fig. 3b): held-out binary log-loss of
 * new LLMs against the number of LLMs the bank was calibrated on, per model,
 * with a ±sd band over draws.
 */
export function calibrationChart(data: CalibrationData, opts: ChartOptions = {}): SVGSVGElement {
  const yLabel = data.yLabel ?? 'Held-out binary log-loss';
  const f = createSeriesFrame(opts, {
    height: 320,
    title: `${yLabel} against the number of calibration LLMs`,
    series: data.series.length,
    right: 32,
  });
  const pts = data.series.flatMap((s) => s.points);
  const ns = [...new Set(pts.map((p) => p.n))].sort((a, b) => a - b);
  const label = new Map(pts.map((p) => [p.n, p.label]));
  const x = scaleLinear()
    .domain(finiteExtent(ns, [0, 1]))
    .range([10, f.innerWidth - 10]);
  const top = max(pts, (p) => (Number.isFinite(p.mean) ? p.mean + (p.sd || 0) : 0)) || 1;
  const y = scaleLinear().domain([0, top]).nice().range([f.innerHeight, 0]);
  drawXYAxes(
    f,
    axisBottom(x)
      .tickValues(ns)
      .tickFormat((n) => label.get(+n) ?? String(n)),
    axisLeft(y).ticks(6),
    'LLMs in the calibration fleet (n)',
    yLabel,
  );

  data.series.forEach((s, i) => {
    const color = seriesColor(i);
    const ok = s.points.filter((p) => Number.isFinite(p.mean)).sort((a, b) => a.n - b.n);
    const g = seriesGroup(f.plot, s.model);
    g.append('path')
      .attr('class', 'band')
      .attr('fill', color)
      .attr('fill-opacity', 0.15)
      .attr(
        'd',
        area<CalibrationPoint>()
          .x((p) => x(p.n))
          .y0((p) => y(Math.max(0, p.mean - (p.sd || 0))))
          .y1((p) => y(p.mean + (p.sd || 0)))(ok),
      );
    const path = line<CalibrationPoint>()
      .x((p) => x(p.n))
      .y((p) => y(p.mean));
    linePath(g, 'line', color, path(ok));
    for (const p of ok)
      dot(g, { class: 'point', 'data-n': p.n }, [x(p.n), y(p.mean)], 3.5, color)
        .append('title')
        .text(`${s.model}, n = ${p.label}: ${fmt(p.mean, 3)} ± ${fmt(p.sd, 3)}`);
  });

  drawSeriesLegend(
    f,
    data.series.map((s, i) => ({ label: s.model, color: seriesColor(i) })),
  );
  return f.svg.node()!;
}
