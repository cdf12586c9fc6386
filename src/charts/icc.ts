import { createFrame } from './frame';
import type { ChartOptions } from './types';

export interface IccLlm {
  id: string;
  theta: number;
  /** Observed option distribution p_jk for this item. */
  probs: number[];
}

export interface IccData {
  /** θ grid, ascending (usually [−4, 4]). */
  theta: number[];
  /** Model option probabilities, traces[gridIndex][option]. */
  traces: number[][];
  /** Option labels, one per option. */
  labels: string[];
  /** Index of the correct option. */
  key: number;
  llms?: IccLlm[];
}

/** TODO: stub; draws an empty frame. */
export function iccChart(_data: IccData, opts: ChartOptions = {}): SVGSVGElement {
  return createFrame(opts, { width: 640, height: 320, title: 'iccChart' }).svg.node()!;
}
