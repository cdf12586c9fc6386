import { createFrame } from './frame';
import type { ChartOptions } from './types';

export interface DistractorHistogramData {
  /** Informative-distractor count per item. */
  counts: number[];
}

/** TODO: stub; draws an empty frame. */
export function distractorHistogramChart(
  _data: DistractorHistogramData,
  opts: ChartOptions = {},
): SVGSVGElement {
  return createFrame(opts, {
    width: 640,
    height: 320,
    title: 'distractorHistogramChart',
  }).svg.node()!;
}
