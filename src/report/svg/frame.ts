/**
 * What every report chart shares, as SVG strings: a linear scale, round
 * ticks, axes, and the outer <svg> with its <title> (the chart's alt text).
 * The charts are drawn without a DOM so that the CLI and the worker give the
 * same bytes.
 */
import { esc, fmt } from '../html';

/** A linear map from [d0, d1] to [r0, r1]. */
export interface Scale {
  (x: number): number;
  domain: [number, number];
}

export function linear(d0: number, d1: number, r0: number, r1: number): Scale {
  const span = d1 - d0 || 1;
  const f = ((x: number) => r0 + ((x - d0) / span) * (r1 - r0)) as Scale;
  f.domain = [d0, d1];
  return f;
}

/** About `n` round tick values covering [lo, hi] (steps of 1, 2 or 5 × 10^k). */
export function ticks(lo: number, hi: number, n = 5): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / n;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) ?? 10 * p;
  const out: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step)
    out.push(Math.abs(t) < step * 1e-9 ? 0 : Number(t.toPrecision(12)));
  return out;
}

/** Decimals that show `step` exactly (0 for whole steps). */
export function decimalsFor(values: number[]): number {
  if (values.length < 2) return 2;
  const step = Math.abs(values[1] - values[0]);
  return Math.max(0, Math.min(4, -Math.floor(Math.log10(step) + 1e-9)));
}

/** Round a coordinate to 0.1 px: short, stable output. */
export const px = (v: number): string => fmt(v, 1).replace(/\.0$/, '');

/** The outer <svg>: a titled image with a description for screen readers. */
export function svgRoot(
  width: number,
  height: number,
  title: string,
  desc: string,
  body: string,
): string {
  return `<svg role="img" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}"><title>${esc(title)}</title><desc>${esc(desc)}</desc>${body}</svg>`;
}

/** A horizontal axis at y with ticks and an optional label under it. */
export function xAxis(x: Scale, y: number, label: string, tv = ticks(...x.domain)): string {
  const d = decimalsFor(tv);
  const parts = tv.map(
    (t) =>
      `<line x1="${px(x(t))}" x2="${px(x(t))}" y1="${px(y)}" y2="${px(y + 4)}" class="tick"/><text x="${px(x(t))}" y="${px(y + 15)}" text-anchor="middle">${esc(fmt(t, d))}</text>`,
  );
  const [r0, r1] = [x(x.domain[0]), x(x.domain[1])];
  const lab = label
    ? `<text x="${px((r0 + r1) / 2)}" y="${px(y + 30)}" text-anchor="middle" class="axis-label">${esc(label)}</text>`
    : '';
  return `<g class="axis"><line x1="${px(r0)}" x2="${px(r1)}" y1="${px(y)}" y2="${px(y)}"/>${parts.join('')}${lab}</g>`;
}

/** A vertical axis at x with ticks, light grid lines to `gridTo`, and a rotated label. */
export function yAxis(y: Scale, x: number, label: string, gridTo: number): string {
  const tv = ticks(...y.domain, 4);
  const d = decimalsFor(tv);
  const parts = tv.map(
    (t) =>
      `<line x1="${px(x)}" x2="${px(gridTo)}" y1="${px(y(t))}" y2="${px(y(t))}" class="grid"/><text x="${px(x - 6)}" y="${px(y(t) + 4)}" text-anchor="end">${esc(fmt(t, d))}</text>`,
  );
  const [r0, r1] = [y(y.domain[0]), y(y.domain[1])];
  const mid = (r0 + r1) / 2;
  return `<g class="axis"><line x1="${px(x)}" x2="${px(x)}" y1="${px(r0)}" y2="${px(r1)}"/>${parts.join('')}<text transform="translate(${px(Math.max(12, x - 40))},${px(mid)}) rotate(-90)" text-anchor="middle" class="axis-label">${esc(label)}</text></g>`;
}

/** A polyline through (x, y) points; non-finite points break the line. */
export function path(points: [number, number][], cls: string, dash = ''): string {
  let d = '';
  let pen = false;
  for (const [a, b] of points) {
    if (!Number.isFinite(a) || !Number.isFinite(b)) {
      pen = false;
      continue;
    }
    d += `${pen ? 'L' : 'M'}${px(a)},${px(b)}`;
    pen = true;
  }
  const da = dash ? ` stroke-dasharray="${dash}"` : '';
  return d ? `<path d="${d}" class="${cls}" fill="none"${da}/>` : '';
}

/** Extent of finite values, padded by `pad` of the span (a flat range gets ±0.5). */
export function extent(values: number[], pad = 0.05): [number, number] {
  const v = values.filter(Number.isFinite);
  if (v.length === 0) return [0, 1];
  let lo = Math.min(...v);
  let hi = Math.max(...v);
  if (hi === lo) return [lo - 0.5, hi + 0.5];
  const m = (hi - lo) * pad;
  lo -= m;
  hi += m;
  return [lo, hi];
}
