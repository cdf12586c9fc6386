import { createFrame } from './frame';
import type { ChartOptions } from './types';

export interface SharpnessRow {
  id: string;
  /** Response sharpness s_j > 0. */
  s: number;
}

/** TODO: stub; draws an empty frame. */
export function sharpnessChart(_data: SharpnessRow[], opts: ChartOptions = {}): SVGSVGElement {
  return createFrame(opts, { width: 640, height: 320, title: 'sharpnessChart' }).svg.node()!;
}
