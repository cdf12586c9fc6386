/**
 * One item's option curves P(option | θ): the key a thick solid line, each
 * distractor its own dash pattern, every line labelled with its option letter
 * at its right end (so colour is not what tells them apart).
 */
import { esc } from '../html';
import { linear, path, px, svgRoot, xAxis, yAxis } from './frame';

const DASHES = ['', '6 3', '2 3', '8 3 2 3', '1 2', '10 4', '4 4', '3 6', '12 2', '2 6'];

export interface CurveSeries {
  label: string;
  isKey: boolean;
  /** P at each grid point. */
  p: ArrayLike<number>;
}

/** `grid` θ values; one series per option; `marks` optional θ of the LLMs (ticks along the bottom). */
export function itemCurvesChart(
  item: string,
  grid: ArrayLike<number>,
  series: CurveSeries[],
  marks: number[] = [],
  width = 300,
  height = 170,
): string {
  const L = 44;
  const R = 22;
  const T = 8;
  const B = 36;
  const x = linear(grid[0], grid[grid.length - 1], L, width - R);
  const y = linear(0, 1, height - B, T);
  const ends = labelPositions(
    series.map((s) => y(s.p[grid.length - 1])),
    10,
    height - B - 2,
  );
  const lines = series.map((s, k) => {
    const pts: [number, number][] = Array.from({ length: grid.length }, (_, q) => [
      x(grid[q]),
      y(s.p[q]),
    ]);
    const last = pts[pts.length - 1];
    const cls = s.isKey ? 'curve key' : `curve c${k % 6}`;
    const dash = s.isKey ? '' : DASHES[(k % (DASHES.length - 1)) + 1];
    return `${path(pts, cls, dash)}<text x="${px(last[0] + 3)}" y="${px(ends[k] + 4)}" class="end-label">${esc(s.label)}${s.isKey ? '*' : ''}</text>`;
  });
  const rug = marks
    .map(
      (t) =>
        `<line x1="${px(x(t))}" x2="${px(x(t))}" y1="${px(height - B - 5)}" y2="${px(height - B)}" class="rug"/>`,
    )
    .join('');
  const keyLabel = series.find((s) => s.isKey)?.label ?? '?';
  return svgRoot(
    width,
    height,
    `Option curves of item ${item}`,
    `P(option | θ) for each option over θ from ${grid[0]} to ${grid[grid.length - 1]}; the key ${keyLabel} is the thick solid line marked *, distractors are dashed; ticks at the bottom are the LLMs' fitted θ.`,
    yAxis(y, L, 'P(option)', width - R) + lines.join('') + rug + xAxis(x, height - B, 'θ'),
  );
}

/**
 * End-label heights: the lines' end y, pushed apart to at least `gap` px and
 * kept at or above `max` (the x axis), in the same order as `ys`.
 */
export function labelPositions(ys: number[], gap: number, max = Infinity): number[] {
  const order = ys.map((y, k) => ({ y, k })).sort((a, b) => a.y - b.y || a.k - b.k);
  for (let q = 1; q < order.length; q++) order[q].y = Math.max(order[q].y, order[q - 1].y + gap);
  let cap = max;
  for (let q = order.length - 1; q >= 0; q--) {
    order[q].y = Math.min(order[q].y, cap);
    cap = order[q].y - gap;
  }
  const out = new Array<number>(ys.length);
  for (const o of order) out[o.k] = o.y;
  return out;
}
