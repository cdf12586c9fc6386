import { createFrame } from './frame';
import type { ChartOptions } from './types';

export interface HeatmapData {
  rows: string[];
  cols: string[];
  /** values[row][col]. */
  values: number[][];
  title: string;
}

/** TODO: stub; draws an empty frame. */
export function heatmapChart(_data: HeatmapData, opts: ChartOptions = {}): SVGSVGElement {
  return createFrame(opts, { width: 640, height: 320, title: 'heatmapChart' }).svg.node()!;
}
