import { createFrame } from './frame';
import type { ChartOptions } from './types';

export interface TestInfoData {
  theta: number[];
  /** Test information I(θ). */
  info: number[];
}

/** TODO: stub; draws an empty frame. */
export function testInfoChart(_data: TestInfoData, opts: ChartOptions = {}): SVGSVGElement {
  return createFrame(opts, { width: 640, height: 320, title: 'testInfoChart' }).svg.node()!;
}
