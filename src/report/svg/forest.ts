/** The LLM ranking as a forest plot: θ with its 95% interval, one row per LLM, best first. */
import { esc } from '../html';
import { extent, linear, px, svgRoot, ticks, xAxis } from './frame';

export interface ForestRow {
  label: string;
  theta: number;
  se: number;
}

const ROW = 16;
const LEFT = 170;
const RIGHT = 20;
const TOP = 10;

/** The θ range of a forest plot of `rows`: every interval and 0. */
export function forestDomain(rows: ForestRow[]): [number, number] {
  const lo = rows.map((r) => r.theta - 1.96 * (Number.isFinite(r.se) ? r.se : 0));
  const hi = rows.map((r) => r.theta + 1.96 * (Number.isFinite(r.se) ? r.se : 0));
  return extent([...lo, ...hi, 0]);
}

/** Rows are drawn in the order given, on θ ∈ `domain` (shared by the parts of a long ranking). */
export function forestChart(
  rows: ForestRow[],
  domain = forestDomain(rows),
  part = '',
  width = 640,
): string {
  const [d0, d1] = domain;
  const height = TOP + rows.length * ROW + 44;
  const x = linear(d0, d1, LEFT, width - RIGHT);
  const body = rows.map((r, q) => {
    const y = TOP + q * ROW + ROW / 2;
    const ci = Number.isFinite(r.se)
      ? `<line x1="${px(x(r.theta - 1.96 * r.se))}" x2="${px(x(r.theta + 1.96 * r.se))}" y1="${px(y)}" y2="${px(y)}" class="ci"/>`
      : '';
    return `<text x="${LEFT - 6}" y="${px(y + 4)}" text-anchor="end">${esc(clip(r.label))}</text>${ci}<circle cx="${px(x(r.theta))}" cy="${px(y)}" r="3.5" class="pt"/>`;
  });
  const zero = `<line x1="${px(x(0))}" x2="${px(x(0))}" y1="${TOP}" y2="${px(TOP + rows.length * ROW)}" class="ref" stroke-dasharray="3 3"/>`;
  return svgRoot(
    width,
    height,
    `LLM ranking by θ with 95% intervals${part}`,
    `One row per LLM, best first: a dot at θ and a line from θ − 1.96·SE to θ + 1.96·SE; the dashed line is θ = 0.`,
    zero +
      body.join('') +
      xAxis(x, TOP + rows.length * ROW + 4, 'θ (ability, standardised)', ticks(d0, d1, 8)),
  );
}

/** A label cut to fit the left margin. */
function clip(s: string): string {
  return s.length > 26 ? `${s.slice(0, 25)}…` : s;
}
