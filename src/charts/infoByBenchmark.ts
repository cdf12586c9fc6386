import { createFrame } from './frame';
import type { ChartOptions } from './types';

export interface BenchmarkInfo {
  benchmark: string;
  /** Mean I_binary per item. */
  binary: number;
  /** Mean I_wrong per item (information beyond correctness). */
  wrong: number;
}

/** TODO: stub; draws an empty frame. */
export function infoByBenchmarkChart(
  _data: BenchmarkInfo[],
  opts: ChartOptions = {},
): SVGSVGElement {
  return createFrame(opts, { width: 640, height: 320, title: 'infoByBenchmarkChart' }).svg.node()!;
}
