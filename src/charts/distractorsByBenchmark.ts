import { axisBottom, axisLeft, max, scaleBand, scaleLinear } from 'd3';
import { axisLabel, createFrame, drawAxis, fmt, labelMargin, MUTED, truncate } from './frame';
import type { ChartOptions } from './types';

export interface BenchmarkDistractors {
  benchmark: string;
  /** Mean number of informative distractors per item. */
  meanInformative: number;
  /** Number of items in the benchmark. */
  items: number;
}

const ROW = 22;

/**
 * Mean informative distractors per item for each benchmark (paper Fig. 2b
 * without dates), with a reference rule at one distractor per item.
 */
export function distractorsByBenchmarkChart(
  data: BenchmarkDistractors[],
  opts: ChartOptions = {},
): SVGSVGElement {
  const names = data.map((d) => d.benchmark);
  const margin = { top: 16, right: 48, bottom: 36, left: labelMargin(names) };
  const f = createFrame(opts, {
    width: 640,
    height: margin.top + margin.bottom + Math.max(1, data.length) * ROW,
    title: 'Mean informative distractors per item, by benchmark',
    margin,
  });
  const x = scaleLinear()
    .domain([0, Math.max(1, max(data, (d) => d.meanInformative) ?? 0)])
    .nice()
    .range([0, f.innerWidth]);
  const y = scaleBand<number>()
    .domain(data.map((_, i) => i))
    .range([0, f.innerHeight])
    .padding(0.2);

  drawAxis(f.plot, axisBottom(x).ticks(6), `translate(0,${f.innerHeight})`);
  drawAxis(
    f.plot,
    axisLeft(y).tickFormat((i) => truncate(names[i])),
  );
  axisLabel(f.plot, 'Informative distractors per item', f.innerWidth / 2, f.innerHeight + 32);

  const bars = f.plot.append('g').attr('class', 'bars');
  data.forEach((d, i) => {
    const v = Number.isFinite(d.meanInformative) ? Math.max(0, d.meanInformative) : 0;
    const row = bars.append('g').attr('class', 'benchmark').attr('data-benchmark', d.benchmark);
    row
      .append('title')
      .text(
        `${d.benchmark}: ${fmt(d.meanInformative)} informative distractors per item (${d.items} items)`,
      );
    row
      .append('rect')
      .attr('x', 0)
      .attr('y', y(i)!)
      .attr('width', x(v))
      .attr('height', y.bandwidth())
      .attr('fill', '#59a14f');
    row
      .append('text')
      .attr('x', x(v) + 4)
      .attr('y', y(i)! + y.bandwidth() / 2)
      .attr('dy', '0.32em')
      .attr('fill', 'currentColor')
      .text(fmt(d.meanInformative));
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
