import { axisBottom, axisLeft, max, scaleBand, scaleLinear } from 'd3';
import { createFrame, drawXYAxes } from './frame';
import type { ChartOptions } from './types';

export interface DistractorHistogramData {
  /** Informative-distractor count per item. */
  counts: number[];
}

export interface CountBin {
  /** Number of informative distractors. */
  value: number;
  /** Number of items with that many. */
  items: number;
}

/** Item counts for every distractor count 0..max (zeros included; negatives/non-integers dropped). */
export function countHistogram(counts: number[]): CountBin[] {
  // The cap guards against a malformed count allocating a huge array.
  const valid = counts.filter((c) => Number.isInteger(c) && c >= 0 && c <= 1000);
  const top = valid.reduce((m, c) => Math.max(m, c), 0);
  const bins = Array.from({ length: top + 1 }, (_, value) => ({ value, items: 0 }));
  for (const c of valid) bins[c].items++;
  return bins;
}

/** Bar per informative-distractor count with the number of items having it. */
export function distractorHistogramChart(
  data: DistractorHistogramData,
  opts: ChartOptions = {},
): SVGSVGElement {
  const f = createFrame(opts, {
    width: 400,
    height: 260,
    title: 'Items by number of informative distractors',
  });
  const bins = countHistogram(data.counts);
  const x = scaleBand<number>()
    .domain(bins.map((b) => b.value))
    .range([0, f.innerWidth])
    .padding(0.15);
  const y = scaleLinear()
    .domain([0, max(bins, (b) => b.items) || 1])
    .nice()
    .range([f.innerHeight, 0]);

  drawXYAxes(f, axisBottom(x), axisLeft(y).ticks(5), 'Informative distractors', 'Items');

  const bars = f.plot.append('g').attr('class', 'bars').attr('fill', '#59a14f');
  for (const b of bins) {
    const g = bars.append('g').attr('data-count', b.value);
    g.append('title').text(
      `${b.value} informative distractor${b.value === 1 ? '' : 's'}: ${b.items} items`,
    );
    g.append('rect')
      .attr('x', x(b.value)!)
      .attr('y', y(b.items))
      .attr('width', x.bandwidth())
      .attr('height', f.innerHeight - y(b.items));
    g.append('text')
      .attr('x', x(b.value)! + x.bandwidth() / 2)
      .attr('y', y(b.items) - 4)
      .attr('text-anchor', 'middle')
      .attr('fill', 'currentColor')
      .text(b.items);
  }
  return f.svg.node()!;
}
