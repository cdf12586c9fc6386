import { createFrame } from './frame';
import type { ChartOptions } from './types';

export interface ThetaRankingRow {
  id: string;
  theta: number;
  se: number;
  /** Proportion correct in [0, 1]. */
  accuracy: number;
}

/** TODO: stub; draws an empty frame. */
export function thetaRankingChart(
  _data: ThetaRankingRow[],
  opts: ChartOptions = {},
): SVGSVGElement {
  return createFrame(opts, { width: 640, height: 320, title: 'thetaRankingChart' }).svg.node()!;
}
