import { createFrame } from './frame';
import type { ChartOptions } from './types';

export interface Band {
  option: number;
  from: number;
  to: number;
}

export interface BandsData {
  /** θ ranges over which `option` is the most likely response. */
  bands: Band[];
  labels: string[];
  key: number;
}

/** TODO: stub; draws an empty frame. */
export function bandsChart(_data: BandsData, opts: ChartOptions = {}): SVGSVGElement {
  return createFrame(opts, { width: 640, height: 320, title: 'bandsChart' }).svg.node()!;
}
