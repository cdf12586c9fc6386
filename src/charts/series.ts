import { schemeTableau10 } from 'd3';
import type { Parent } from './frame';

/** Colour of the i-th series (a model or a fit); Tableau 10, as the option colours. */
export function seriesColor(i: number): string {
  return schemeTableau10[((i % 10) + 10) % 10];
}

/** [min, max] of the finite values, widened to a non-empty interval; `fallback` when there are none. */
export function finiteExtent(values: number[], fallback: [number, number]): [number, number] {
  const v = values.filter(Number.isFinite);
  if (v.length === 0) return fallback;
  const lo = Math.min(...v);
  const hi = Math.max(...v);
  if (lo < hi) return [lo, hi];
  const pad = Math.abs(lo) > 0 ? Math.abs(lo) * 0.1 : 1;
  return [lo - pad, hi + pad];
}

/** A mean ± sd whisker from (x1, y1) to (x2, y2) with end caps across it. */
export function whisker(
  parent: Parent,
  [x1, y1]: [number, number],
  [x2, y2]: [number, number],
  color: string,
  cap = 3,
) {
  const g = parent.append('g').attr('class', 'whisker').attr('stroke', color);
  g.append('line').attr('x1', x1).attr('y1', y1).attr('x2', x2).attr('y2', y2);
  const vertical = x1 === x2;
  for (const [x, y] of [
    [x1, y1],
    [x2, y2],
  ])
    g.append('line')
      .attr('x1', vertical ? x - cap : x)
      .attr('x2', vertical ? x + cap : x)
      .attr('y1', vertical ? y : y - cap)
      .attr('y2', vertical ? y : y + cap);
  return g;
}
