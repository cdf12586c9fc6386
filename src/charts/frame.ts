import {
  axisBottom,
  axisLeft,
  scaleBand,
  select,
  type Axis,
  type AxisDomain,
  type ScaleBand,
  type ScaleLinear,
  type Selection,
} from 'd3';
import type { ChartOptions } from './types';

export const SVG_NS = 'http://www.w3.org/2000/svg';
export const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
export const FONT_SIZE = 11;
export const MUTED = '#666';

export type Svg = Selection<SVGSVGElement, unknown, null, undefined>;
export type G = Selection<SVGGElement, unknown, null, undefined>;
// Any selection we can append children to.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Parent = Selection<any, any, any, any>;

export interface Margin {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export interface Frame {
  svg: Svg;
  /** Plot area, translated by the margins. */
  plot: G;
  width: number;
  height: number;
  innerWidth: number;
  innerHeight: number;
  margin: Margin;
}

export interface FrameDefaults {
  width: number;
  height: number;
  title: string;
  margin?: Partial<Margin>;
}

// Scoped by class because a <style> inside inline SVG applies to the whole page.
const STYLE = [
  '.nrm-chart .llm-row { cursor: pointer; }',
  '.nrm-chart .llm-row:focus { outline: none; }',
  '.nrm-chart .llm-row:hover .hit, .nrm-chart .llm-row:focus .hit { fill-opacity: 0.08; }',
  '.nrm-chart .llm-row:focus .hit { stroke: #1f77b4; stroke-width: 1.5; }',
].join('\n');

/**
 * Creates a detached, self-styled `<svg>` with role, label, `<title>` and a
 * margin-translated plot group. All styling lives in attributes or the inline
 * `<style>`, so the node exports as-is.
 */
export function createFrame(opts: ChartOptions, defaults: FrameDefaults): Frame {
  const doc = opts.document ?? globalThis.document;
  const width = opts.width ?? defaults.width;
  const height = opts.height ?? defaults.height;
  const margin = { top: 20, right: 20, bottom: 36, left: 48, ...defaults.margin };
  const title = opts.title ?? defaults.title;
  const svg = select(doc.createElementNS(SVG_NS, 'svg') as SVGSVGElement)
    .attr('class', 'nrm-chart')
    .attr('width', width)
    .attr('height', height)
    .attr('viewBox', `0 0 ${width} ${height}`)
    .attr('role', 'img')
    .attr('aria-label', title)
    .attr('font-family', FONT)
    .attr('font-size', FONT_SIZE)
    .style('max-width', '100%')
    .style('height', 'auto');
  svg.append('title').text(title);
  svg.append('style').text(STYLE);
  const plot = svg.append('g').attr('transform', `translate(${margin.left},${margin.top})`);
  return {
    svg,
    plot,
    width,
    height,
    margin,
    innerWidth: Math.max(1, width - margin.left - margin.right),
    innerHeight: Math.max(1, height - margin.top - margin.bottom),
  };
}

/** Draws an axis and replaces d3's default font with ours. */
export function drawAxis<D extends AxisDomain>(
  parent: Parent,
  axis: Axis<D>,
  transform?: string,
): G {
  const g: G = parent.append('g');
  if (transform) g.attr('transform', transform);
  g.call(axis).attr('font-family', FONT).attr('font-size', FONT_SIZE);
  return g;
}

/** Axis title text; `rotate` for a vertical (y) axis. */
export function axisLabel(parent: Parent, text: string, x: number, y: number, rotate = false) {
  const t = parent
    .append('text')
    .attr('class', 'axis-label')
    .attr('fill', 'currentColor')
    .attr('text-anchor', 'middle')
    .attr('x', rotate ? -y : x)
    .attr('y', rotate ? x : y)
    .text(text);
  if (rotate) t.attr('transform', 'rotate(-90)');
  return t;
}

/**
 * Estimated width in px of a label at `size` (detached nodes cannot be
 * measured). Per-character advances of DejaVu Sans, the widest of the usual
 * sans fonts (digits 0.64 em, '.' and ',' 0.32 em, '−' 0.84 em), so the
 * estimate errs wide.
 */
export function labelWidth(text: string, size = FONT_SIZE): number {
  let em = 0;
  for (const ch of text)
    em += /[.,:;|' ]/.test(ch) ? 0.32 : ch === '−' ? 0.84 : /[0-9]/.test(ch) ? 0.64 : 0.62;
  return em * size;
}

/** d3's tick size and padding: a tick label ends this far left of the axis line. */
const TICK_ROOM = 9;

/**
 * Draws a y axis's rotated title clear of its tick labels (read from `axis`,
 * the drawn axis group): the title's baseline sits 5 px beyond the widest
 * label. When that does not fit in the left margin the whole chart is widened
 * on the left (its plot, scales and everything drawn in it stay as they are),
 * so the title neither overlaps the labels nor leaves the svg.
 */
export function yAxisTitle(f: Frame, axis: G, text: string): void {
  const labels = axis
    .selectAll<SVGTextElement, unknown>('.tick text')
    .nodes()
    .map((n) => n.textContent ?? '');
  const widest = Math.max(0, ...labels.map((l) => labelWidth(l)));
  // The rotated title's glyphs reach ~3 px right of its baseline and ~9 px left.
  const x = -(TICK_ROOM + widest + 5 + 3);
  ensureLeftRoom(f, -x + 10);
  axisLabel(f.plot, text, x, f.innerHeight / 2, true);
}

/**
 * Widens the chart on the left so that its left margin is at least `left`
 * (the plot moves right, nothing in it changes).
 */
export function ensureLeftRoom(f: Frame, left: number): void {
  const extra = Math.ceil(left - f.margin.left);
  if (extra <= 0) return;
  f.margin.left += extra;
  f.width += extra;
  f.svg.attr('width', f.width).attr('viewBox', `0 0 ${f.width} ${f.height}`);
  f.plot.attr('transform', `translate(${f.margin.left},${f.margin.top})`);
}

/**
 * A tick format for values that may be tiny: when the largest |tick| is below
 * 0.01 the labels are the values times 10^k (k chosen so they read 1–999),
 * and `unit` names the factor for the axis title (" (×10⁻⁴)"), instead of
 * seven-character labels like "0.00014". Otherwise d3's format for the ticks.
 */
export function scaledTickFormat(ticks: number[]): {
  format: (v: number) => string;
  unit: string;
} {
  const big = Math.max(0, ...ticks.map((t) => Math.abs(t)));
  if (!(big > 0) || big >= 0.01) {
    const step = ticks.length > 1 ? Math.abs(ticks[1] - ticks[0]) : big || 1;
    const d = Math.max(0, Math.min(6, -Math.floor(Math.log10(step) + 1e-9)));
    return { format: (v) => fmt(v, d), unit: '' };
  }
  const k = Math.floor(Math.log10(big));
  const f = 10 ** -k;
  const step = ticks.length > 1 ? Math.abs(ticks[1] - ticks[0]) * f : 1;
  const d = Math.max(0, Math.min(3, -Math.floor(Math.log10(step) + 1e-9)));
  return { format: (v) => fmt(v * f, d), unit: ` (×10${superscript(k)})` };
}

const SUPERSCRIPT: Record<string, string> = {
  '-': '⁻',
  '0': '⁰',
  '1': '¹',
  '2': '²',
  '3': '³',
  '4': '⁴',
  '5': '⁵',
  '6': '⁶',
  '7': '⁷',
  '8': '⁸',
  '9': '⁹',
};
const superscript = (k: number) => [...String(k)].map((c) => SUPERSCRIPT[c] ?? c).join('');

/**
 * The x axis below the plot and the y axis on its left, each with its title
 * (`xLabelY` below the plot; the y title clear of the widest tick label, or
 * at `yLabelX` when given).
 */
export function drawXYAxes<X extends AxisDomain, Y extends AxisDomain>(
  f: Frame,
  xAxis: Axis<X>,
  yAxis: Axis<Y>,
  xLabel: string,
  yLabel: string,
  { xLabelY = 32, yLabelX }: { xLabelY?: number; yLabelX?: number } = {},
): void {
  drawAxis(f.plot, xAxis, `translate(0,${f.innerHeight})`);
  const yg = drawAxis(f.plot, yAxis);
  axisLabel(f.plot, xLabel, f.innerWidth / 2, f.innerHeight + xLabelY);
  if (yLabelX === undefined) yAxisTitle(f, yg, yLabel);
  else axisLabel(f.plot, yLabel, yLabelX, f.innerHeight / 2, true);
}

/** A horizontal reference line across the plot at `y`, dashed. */
export function hline(f: Frame, parent: Parent, y: number, color: string, dash: string) {
  return parent
    .append('line')
    .attr('x1', 0)
    .attr('x2', f.innerWidth)
    .attr('y1', y)
    .attr('y2', y)
    .attr('stroke', color)
    .attr('stroke-dasharray', dash);
}

/**
 * A faint guide line from (x1, y1) to (x2, y2), dashed with `dash` (solid
 * when null); its colour comes from the parent group's stroke.
 */
export function guideLine(
  parent: Parent,
  [x1, y1]: [number, number],
  [x2, y2]: [number, number],
  dash: string | null,
) {
  return parent
    .append('line')
    .attr('x1', x1)
    .attr('x2', x2)
    .attr('y1', y1)
    .attr('y2', y2)
    .attr('stroke-dasharray', dash)
    .attr('stroke-opacity', 0.6);
}

/** Shortens long user-supplied labels; the full text stays available in `<title>`. */
export function truncate(text: string, max = 24): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Fixed-decimal number with a true minus sign. */
export function fmt(x: number, digits = 2): string {
  return Number.isFinite(x) ? x.toFixed(digits).replace('-', '−') : '—';
}

/** Rough left margin for a column of labels (no text measurement in detached nodes). */
export function labelMargin(labels: string[], maxChars = 24): number {
  const longest = Math.max(0, ...labels.map((l) => Math.min(l.length, maxChars)));
  return Math.min(190, Math.round(longest * 6.6 + 18));
}

/** A chart of one horizontal band per labelled row (benchmarks, scenarios). */
export interface RowFrame extends Frame {
  /** A band per row index: indices keep duplicate names on separate rows. */
  y: ScaleBand<number>;
  names: string[];
}

export interface RowFrameDefaults {
  title: string;
  names: string[];
  /** Height of one row in px. */
  rowHeight: number;
  top: number;
  right: number;
}

/** A 640-px frame sized to its rows, the left margin fitted to the row names. */
export function createRowFrame(opts: ChartOptions, d: RowFrameDefaults): RowFrame {
  const margin = { top: d.top, right: d.right, bottom: 36, left: labelMargin(d.names) };
  const f = createFrame(opts, {
    width: 640,
    height: margin.top + margin.bottom + Math.max(1, d.names.length) * d.rowHeight,
    title: d.title,
    margin,
  });
  const y = scaleBand<number>()
    .domain(d.names.map((_, i) => i))
    .range([0, f.innerHeight])
    .padding(0.2);
  return { ...f, y, names: d.names };
}

/** The value axis below with its label, and the row names (truncated) on the left. */
export function drawRowAxes(f: RowFrame, x: ScaleLinear<number, number>, label: string): void {
  drawAxis(f.plot, axisBottom(x).ticks(6), `translate(0,${f.innerHeight})`);
  drawAxis(
    f.plot,
    axisLeft(f.y).tickFormat((i) => truncate(f.names[i])),
  );
  axisLabel(f.plot, label, f.innerWidth / 2, f.innerHeight + 32);
}

/** A horizontal bar from value `from` to `to`; `attrs` come first (class, data-*). */
export function hbar(
  parent: Parent,
  x: ScaleLinear<number, number>,
  band: { y: number; height: number },
  from: number,
  to: number,
  fill: string,
  attrs: Record<string, string> = {},
) {
  const rect = parent.append('rect');
  for (const [k, v] of Object.entries(attrs)) rect.attr(k, v);
  const x0 = x(Math.min(from, to));
  const x1 = x(Math.max(from, to));
  return rect
    .attr('x', x0)
    .attr('y', band.y)
    .attr('width', Math.max(0, x1 - x0))
    .attr('height', band.height)
    .attr('fill', fill);
}

/** A value label just right of `x`, centred on `y`. */
export function valueLabel(parent: Parent, x: number, y: number, text: string, cls?: string) {
  const t = parent.append('text');
  if (cls) t.attr('class', cls);
  return t.attr('x', x).attr('y', y).attr('dy', '0.32em').attr('fill', 'currentColor').text(text);
}
