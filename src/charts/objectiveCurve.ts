import { createFrame } from './frame';
import type { ChartOptions } from './types';

export interface ObjectivePoint {
  step: number;
  objective: number;
}

/** TODO: stub; draws an empty frame. */
export function objectiveCurveChart(
  _data: ObjectivePoint[],
  opts: ChartOptions = {},
): SVGSVGElement {
  return createFrame(opts, { width: 640, height: 320, title: 'objectiveCurveChart' }).svg.node()!;
}
