import { axisBottom, axisLeft, max, scaleBand, scaleLinear } from 'd3';
import { axisLabel, createFrame, drawAxis, fmt, labelMargin, MUTED, truncate } from './frame';
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

const ROW = 20;
const GAP = 28;
const BEST = '#4e79a7';
const OTHER = '#a0cbe8';

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
 * metric, one bar per model with a ±sd whisker over folds; the best model in
 * each panel is darker.
 */
export function cvMetricsChart(data: CvMetricsData, opts: ChartOptions = {}): SVGSVGElement {
  const { models, metrics } = data;
  const margin = { top: 34, right: 16, bottom: 62, left: labelMargin(models) };
  const f = createFrame(opts, {
    width: 640,
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
  const n = Math.max(1, metrics.length);
  const pw = Math.max(1, (f.innerWidth - GAP * (n - 1)) / n);
  const best = bestByMetric(data);

  metrics.forEach((m, p) => {
    const cells = data.cells.filter((c) => c.metric === m.key);
    const hi = max(cells, (c) => (Number.isFinite(c.mean) ? c.mean + (c.sd || 0) : 0)) || 1;
    const x = scaleLinear().domain([0, hi]).nice().range([0, pw]);
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
    axisLabel(panel, m.unit ?? m.label, pw / 2, f.innerHeight + 30);
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
      bar
        .append('rect')
        .attr('class', 'bar')
        .attr('x', 0)
        .attr('y', y(i)!)
        .attr('width', x(Math.max(0, c.mean)))
        .attr('height', y.bandwidth())
        .attr('fill', isBest ? BEST : OTHER);
      if (Number.isFinite(c.sd) && c.sd > 0)
        whisker(bar, [x(Math.max(0, c.mean - c.sd)), mid], [x(c.mean + c.sd), mid], 'currentColor');
    });
  });
  f.plot
    .append('text')
    .attr('class', 'cv-legend')
    .attr('x', 0)
    .attr('y', f.innerHeight + 50)
    .attr('fill', MUTED)
    .text('Bar: mean over folds; whisker: ± 1 sd; darker bar: the best model in that panel.');
  return f.svg.node()!;
}
