import { createFrame } from './frame';
import type { ChartOptions } from './types';

export interface BenchmarkDistractors {
  benchmark: string;
  /** Mean number of informative distractors per item. */
  meanInformative: number;
  /** Number of items in the benchmark. */
  items: number;
}

/** TODO: stub; draws an empty frame. */
export function distractorsByBenchmarkChart(
  _data: BenchmarkDistractors[],
  opts: ChartOptions = {},
): SVGSVGElement {
  return createFrame(opts, {
    width: 640,
    height: 320,
    title: 'distractorsByBenchmarkChart',
  }).svg.node()!;
}
