import { createFrame } from './frame';
import type { ChartOptions } from './types';

export interface GatePoint {
  /** x = θ − b̃. */
  x: number;
  g: number;
  llm: string;
}

export interface GateData {
  w0: number;
  kappa: number;
  points?: GatePoint[];
}

/** TODO: stub; draws an empty frame. */
export function gateChart(_data: GateData, opts: ChartOptions = {}): SVGSVGElement {
  return createFrame(opts, { width: 640, height: 320, title: 'gateChart' }).svg.node()!;
}
