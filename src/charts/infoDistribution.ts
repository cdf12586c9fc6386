import { createFrame } from './frame';
import type { ChartOptions } from './types';

export interface InfoDistributionData {
  /** Per-item mean information. */
  values: number[];
  /** x-axis label. */
  label?: string;
}

/** TODO: stub; draws an empty frame. */
export function infoDistributionChart(
  _data: InfoDistributionData,
  opts: ChartOptions = {},
): SVGSVGElement {
  return createFrame(opts, { width: 640, height: 320, title: 'infoDistributionChart' }).svg.node()!;
}
