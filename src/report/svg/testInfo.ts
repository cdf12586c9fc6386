/** Test information I(θ) over θ (solid) and the standard error 1/√I(θ) on its own axis (dashed). */
import { esc } from '../html';
import { extent, linear, path, px, svgRoot, ticks, decimalsFor, xAxis, yAxis } from './frame';
import { fmt } from '../html';

export function testInfoChart(
  grid: ArrayLike<number>,
  info: ArrayLike<number>,
  width = 560,
  height = 230,
): string {
  const L = 62;
  const R = 62;
  const T = 10;
  const B = 40;
  const n = grid.length;
  const th = Array.from(grid);
  const I = Array.from(info);
  const se = I.map((v) => (v > 0 ? 1 / Math.sqrt(v) : NaN));
  const x = linear(th[0], th[n - 1], L, width - R);
  const y = linear(0, extent(I, 0.05)[1], height - B, T);
  const seMax = Math.min(Math.max(...se.filter(Number.isFinite), 0.1), 5);
  const y2 = linear(0, seMax, height - B, T);
  const tv = ticks(0, seMax, 4);
  const d = decimalsFor(tv);
  const right = tv
    .map(
      (t) =>
        `<line x1="${width - R}" x2="${width - R + 4}" y1="${px(y2(t))}" y2="${px(y2(t))}" class="tick"/><text x="${width - R + 7}" y="${px(y2(t) + 4)}">${esc(fmt(t, d))}</text>`,
    )
    .join('');
  const rAxis = `<g class="axis"><line x1="${width - R}" x2="${width - R}" y1="${T}" y2="${height - B}"/>${right}<text transform="translate(${width - 14},${px((T + height - B) / 2)}) rotate(90)" text-anchor="middle" class="axis-label">SE = 1/√I (dashed)</text></g>`;
  const seClipped = se.map((v) => (v <= seMax ? v : NaN));
  return svgRoot(
    width,
    height,
    'Test information and standard error over θ',
    'Solid line: the test information I(θ), the sum of every item’s information, left axis. Dashed line: the standard error of θ, 1/√I(θ), right axis (shown up to ' +
      fmt(seMax, 2) +
      ').',
    yAxis(y, L, 'information I(θ) (solid)', width - R) +
      rAxis +
      path(
        th.map((t, q) => [x(t), y(I[q])]),
        'series',
      ) +
      path(
        th.map((t, q) => [x(t), y2(seClipped[q])]),
        'series alt',
        '6 4',
      ) +
      xAxis(x, height - B, 'θ'),
  );
}
