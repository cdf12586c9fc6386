import { max, scaleLinear } from 'd3';
import type { BenchmarkInfoRow } from '../core/eval/info';
import { createRowFrame, drawRowAxes, fmt, hbar, MUTED, valueLabel } from './frame';
import type { ChartOptions } from './types';

/** What the chart reads of a benchmark's row (core's `BenchmarkInfoRow`). */
export type BenchmarkDistractors = Pick<
  BenchmarkInfoRow,
  'benchmark' | 'informativeDistractors' | 'items'
>;

/**
 * Mean informative distractors per item for each benchmark (paper Fig. 2b
 * without dates), with a reference rule at one distractor per item.
 */
export function distractorsByBenchmarkChart(
  data: BenchmarkDistractors[],
  opts: ChartOptions = {},
): SVGSVGElement {
  const f = createRowFrame(opts, {
    title: 'Mean informative distractors per item, by benchmark',
    names: data.map((d) => d.benchmark),
    rowHeight: 22,
    top: 16,
    right: 48,
  });
  const x = scaleLinear()
    .domain([0, Math.max(1, max(data, (d) => d.informativeDistractors) ?? 0)])
    .nice()
    .range([0, f.innerWidth]);
  drawRowAxes(f, x, 'Informative distractors per item');

  const bars = f.plot.append('g').attr('class', 'bars');
  data.forEach((d, i) => {
    const mean = d.informativeDistractors;
    const v = Number.isFinite(mean) ? Math.max(0, mean) : 0;
    const row = bars.append('g').attr('class', 'benchmark').attr('data-benchmark', d.benchmark);
    row
      .append('title')
      .text(`${d.benchmark}: ${fmt(mean)} informative distractors per item (${d.items} items)`);
    const band = { y: f.y(i)!, height: f.y.bandwidth() };
    hbar(row, x, band, 0, v, '#59a14f');
    valueLabel(row, x(v) + 4, band.y + band.height / 2, fmt(mean));
  });

  f.plot
    .append('line')
    .attr('class', 'reference')
    .attr('x1', x(1))
    .attr('x2', x(1))
    .attr('y1', 0)
    .attr('y2', f.innerHeight)
    .attr('stroke', MUTED)
    .attr('stroke-dasharray', '4 3')
    .append('title')
    .text('One informative distractor per item');
  return f.svg.node()!;
}
