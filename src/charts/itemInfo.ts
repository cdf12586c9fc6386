import { createFrame } from './frame';
import type { ChartOptions } from './types';

export interface ItemInfoData {
  theta: number[];
  /** Information retained by binary correctness, per θ. */
  binary: number[];
  /** Additional information from distractor identity, per θ. */
  wrong: number[];
}

/** TODO: stub; draws an empty frame. */
export function itemInfoChart(_data: ItemInfoData, opts: ChartOptions = {}): SVGSVGElement {
  return createFrame(opts, { width: 640, height: 320, title: 'itemInfoChart' }).svg.node()!;
}
