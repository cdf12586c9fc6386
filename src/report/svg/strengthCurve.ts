/** The prior-strength search: held-out cross-entropy per cell against λ (log axis), the chosen λ marked. */
import { esc, fmt } from '../html';
import { extent, linear, path, px, svgRoot, yAxis } from './frame';

export interface StrengthPoint {
  lambda: number;
  loss: number;
}

export function strengthCurveChart(
  points: StrengthPoint[],
  chosen: number,
  width = 420,
  height = 200,
): string {
  const L = 62;
  const R = 16;
  const T = 10;
  const B = 40;
  const pts = [...points].sort((a, b) => a.lambda - b.lambda);
  const logs = pts.map((p) => Math.log2(p.lambda));
  const x = linear(...extent([...logs, Math.log2(chosen)], 0.08), L, width - R);
  const y = linear(
    ...extent(
      pts.map((p) => p.loss),
      0.1,
    ),
    height - B,
    T,
  );
  const marks = pts
    .map(
      (p) =>
        `<circle cx="${px(x(Math.log2(p.lambda)))}" cy="${px(y(p.loss))}" r="3.5" class="pt${p.lambda === chosen ? ' chosen' : ''}"/>`,
    )
    .join('');
  const line = path(
    pts.map((p) => [x(Math.log2(p.lambda)), y(p.loss)]),
    'series',
  );
  const tv = pts.map((p) => p.lambda);
  const xTicks = tv
    .map(
      (l) =>
        `<line x1="${px(x(Math.log2(l)))}" x2="${px(x(Math.log2(l)))}" y1="${height - B}" y2="${height - B + 4}" class="tick"/><text x="${px(x(Math.log2(l)))}" y="${height - B + 15}" text-anchor="middle">${esc(fmt(l, 2))}</text>`,
    )
    .join('');
  const cx = px(x(Math.log2(chosen)));
  const chosenLine = `<line x1="${cx}" x2="${cx}" y1="${T}" y2="${height - B}" class="ref" stroke-dasharray="4 3"/><text x="${cx}" y="${T + 10}" dx="4" class="end-label">chosen λ = ${esc(fmt(chosen, 2))}</text>`;
  return svgRoot(
    width,
    height,
    'Held-out loss against prior strength λ',
    `Held-out cross-entropy per cell for each candidate prior strength λ (log scale); the dashed line marks the chosen λ = ${fmt(chosen, 2)}.`,
    yAxis(y, L, 'held-out CE / cell', width - R) +
      `<g class="axis"><line x1="${L}" x2="${width - R}" y1="${height - B}" y2="${height - B}"/>${xTicks}<text x="${px((L + width - R) / 2)}" y="${height - B + 32}" text-anchor="middle" class="axis-label">prior strength λ (log scale)</text></g>` +
      line +
      marks +
      chosenLine,
  );
}
