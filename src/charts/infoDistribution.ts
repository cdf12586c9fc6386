import { axisBottom, axisLeft, bin, max, scaleLinear } from 'd3';
import { createFrame, drawXYAxes, fmt } from './frame';
import type { ChartOptions } from './types';

export interface InfoDistributionData {
  /** Per-item mean information. */
  values: number[];
  /** x-axis label. */
  label?: string;
}

export interface InfoBin {
  x0: number;
  x1: number;
  count: number;
}

/** Bins finite values with d3.bin (≈`thresholds` nice bins; non-finite values are dropped). */
export function binValues(values: number[], thresholds = 20): InfoBin[] {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return [];
  return bin()
    .thresholds(thresholds)(finite)
    .map((b) => ({ x0: b.x0 ?? NaN, x1: b.x1 ?? NaN, count: b.length }));
}

/** Histogram of per-item mean information. */
export function infoDistributionChart(
  data: InfoDistributionData,
  opts: ChartOptions & { thresholds?: number } = {},
): SVGSVGElement {
  const f = createFrame(opts, {
    width: 480,
    height: 260,
    title: 'Distribution of per-item mean information',
  });
  const bins = binValues(data.values, opts.thresholds);
  const lo = bins[0]?.x0 ?? 0;
  const hi = bins.at(-1)?.x1 ?? 1;
  const x = scaleLinear()
    .domain([lo, hi > lo ? hi : lo + 1])
    .range([0, f.innerWidth]);
  const y = scaleLinear()
    .domain([0, max(bins, (b) => b.count) || 1])
    .nice()
    .range([f.innerHeight, 0]);

  drawXYAxes(
    f,
    axisBottom(x).ticks(6),
    axisLeft(y).ticks(5),
    data.label ?? 'Mean item information',
    'Items',
  );

  const bars = f.plot.append('g').attr('class', 'bars').attr('fill', '#4e79a7');
  bins.forEach((b, i) => {
    bars
      .append('rect')
      .attr('data-bin', i)
      .attr('x', x(b.x0) + 0.5)
      .attr('y', y(b.count))
      .attr('width', Math.max(0, x(b.x1) - x(b.x0) - 1))
      .attr('height', f.innerHeight - y(b.count))
      .append('title')
      .text(`${fmt(b.x0, 3)} – ${fmt(b.x1, 3)}: ${b.count} item${b.count === 1 ? '' : 's'}`);
  });
  return f.svg.node()!;
}
