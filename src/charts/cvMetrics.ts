import { axisBottom, axisLeft, scaleBand, scaleLinear } from 'd3';
import {
  axisLabel,
  createFrame,
  drawAxis,
  fmt,
  labelMargin,
  labelWidth,
  MUTED,
  truncate,
} from './frame';
import { whisker } from './series';
import type { ChartOptions } from './types';

export interface CvMetric {
  key: string;
  label: string;
  /** Which way is better; the best model's bar is drawn darker. */
  better: 'higher' | 'lower';
  /** Axis title with its unit ('log-loss per cell (nats)'); the label when absent. */
  unit?: string;
}

/** One model's mean and sd over folds of one metric. */
export interface CvCell {
  model: string;
  metric: string;
  mean: number;
  sd: number;
}

export interface CvMetricsData {
  models: string[];
  metrics: CvMetric[];
  cells: CvCell[];
}

const ROW = 22;
const GAP = 28;
/** Each panel at least this wide, so its axis title and ticks fit (the chart grows). */
const PANEL_MIN = 176;
const BEST = '#4e79a7';
const OTHER = '#a0cbe8';

/**
 * A panel's x domain, zoomed to its values: from the lowest mean − sd to the
 * highest mean + sd, padded by 15% of that span on each side (at least 2% of
 * the largest |value|, so equal means still get a readable axis). Bars from 0
 * hid differences of 0.01 between models whose means are near 0.9.
 */
export function zoomedDomain(cells: CvCell[]): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const c of cells) {
    if (!Number.isFinite(c.mean)) continue;
    const sd = Number.isFinite(c.sd) ? c.sd : 0;
    lo = Math.min(lo, c.mean - sd);
    hi = Math.max(hi, c.mean + sd);
  }
  if (!(lo <= hi)) return [0, 1];
  const pad = Math.max((hi - lo) * 0.15, Math.max(Math.abs(lo), Math.abs(hi)) * 0.02, 1e-6);
  return [lo - pad, hi + pad];
}

/** Splits an axis title into at most two lines that fit `width` px (at spaces). */
function wrapTitle(text: string, width: number): string[] {
  if (labelWidth(text) <= width) return [text];
  const words = text.split(' ');
  for (let k = words.length - 1; k > 0; k--) {
    const first = words.slice(0, k).join(' ');
    if (labelWidth(first) <= width) return [first, words.slice(k).join(' ')];
  }
  return [text];
}

/** The best model per metric (by mean; ties to the first listed), skipping non-finite means. */
export function bestByMetric(data: CvMetricsData): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of data.metrics) {
    let best: CvCell | undefined;
    for (const model of data.models) {
      const c = data.cells.find((x) => x.model === model && x.metric === m.key);
      if (!c || !Number.isFinite(c.mean)) continue;
      if (!best || (m.better === 'higher' ? c.mean > best.mean : c.mean < best.mean)) best = c;
    }
    if (best) out.set(m.key, best.model);
  }
  return out;
}

/**
 * Held-out prediction (paper Table 1) as small multiples: one panel per
 * metric, one dot per model (its mean over folds) with a ±sd whisker; the best
 * model in each panel is darker. Each panel's axis is zoomed to its values
 * (see zoomedDomain), so it does not start at 0: the chart says so.
 */
export function cvMetricsChart(data: CvMetricsData, opts: ChartOptions = {}): SVGSVGElement {
  const { models, metrics } = data;
  const n = Math.max(1, metrics.length);
  const margin = { top: 34, right: 20, bottom: 76, left: labelMargin(models) };
  const f = createFrame(opts, {
    width: Math.max(640, margin.left + margin.right + n * PANEL_MIN + (n - 1) * GAP),
    height: margin.top + margin.bottom + Math.max(1, models.length) * ROW,
    title: 'Held-out prediction per model: mean ± sd over folds',
    margin,
  });
  const y = scaleBand<number>()
    .domain(models.map((_, i) => i))
    .range([0, f.innerHeight])
    .padding(0.2);
  drawAxis(
    f.plot,
    axisLeft(y).tickFormat((i) => truncate(models[i])),
  );
  const pw = Math.max(1, (f.innerWidth - GAP * (n - 1)) / n);
  const best = bestByMetric(data);

  metrics.forEach((m, p) => {
    const cells = data.cells.filter((c) => c.metric === m.key);
    const x = scaleLinear().domain(zoomedDomain(cells)).nice().range([0, pw]);
    const panel = f.plot
      .append('g')
      .attr('class', 'panel')
      .attr('data-metric', m.key)
      .attr('transform', `translate(${p * (pw + GAP)},0)`);
    panel
      .append('text')
      .attr('class', 'panel-title')
      .attr('x', pw / 2)
      .attr('y', -14)
      .attr('text-anchor', 'middle')
      .attr('fill', 'currentColor')
      .text(`${m.label} ${m.better === 'higher' ? '↑' : '↓'}`);
    // Faint row guides, so a dot reads against its model's row.
    models.forEach((_, i) =>
      panel
        .append('line')
        .attr('class', 'row-guide')
        .attr('x1', 0)
        .attr('x2', pw)
        .attr('y1', y(i)! + y.bandwidth() / 2)
        .attr('y2', y(i)! + y.bandwidth() / 2)
        .attr('stroke', '#e5e5e5'),
    );
    // Few ticks, and the last one ends at the panel's edge, so neighbouring panels' labels never meet.
    const ticks = x.ticks(Math.max(2, Math.floor(pw / 60)));
    const axis = drawAxis(
      panel,
      axisBottom(x).tickValues(ticks).tickFormat(x.tickFormat(ticks.length, '~g')),
      `translate(0,${f.innerHeight})`,
    );
    axis
      .selectAll<SVGTextElement, number>('.tick text')
      .attr('text-anchor', (v) =>
        v === ticks[ticks.length - 1] && ticks.length > 1 ? 'end' : 'middle',
      );
    const title = axisLabel(panel, '', pw / 2, f.innerHeight + 30);
    wrapTitle(m.unit ?? m.label, pw).forEach((line, k) =>
      title
        .append('tspan')
        .attr('x', pw / 2)
        .attr('dy', k === 0 ? 0 : '1.2em')
        .text(line),
    );
    models.forEach((model, i) => {
      const c = cells.find((x) => x.model === model);
      if (!c || !Number.isFinite(c.mean)) return;
      const isBest = best.get(m.key) === model;
      const mid = y(i)! + y.bandwidth() / 2;
      const bar = panel
        .append('g')
        .attr('class', 'cv-bar')
        .attr('data-model', model)
        .attr('data-metric', m.key);
      bar
        .append('title')
        .text(`${model}: ${m.label} ${fmt(c.mean, 3)} ± ${fmt(c.sd, 3)}${isBest ? ' (best)' : ''}`);
      if (Number.isFinite(c.sd) && c.sd > 0)
        whisker(bar, [x(c.mean - c.sd), mid], [x(c.mean + c.sd), mid], 'currentColor');
      bar
        .append('circle')
        .attr('class', 'dot')
        .attr('cx', x(c.mean))
        .attr('cy', mid)
        .attr('r', 5)
        .attr('fill', isBest ? BEST : OTHER)
        .attr('stroke', isBest ? '#2c4f75' : '#5b8db8');
    });
  });
  f.plot
    .append('text')
    .attr('class', 'cv-legend')
    .attr('x', 0)
    .attr('y', f.innerHeight + 66)
    .attr('fill', MUTED)
    .text(
      'Dot: mean over folds; whisker: ± 1 sd; darker dot: the best model in that panel. Each axis is zoomed to its values (not from 0).',
    );
  return f.svg.node()!;
}
