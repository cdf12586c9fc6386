import { axisBottom, axisLeft, format, line, scaleLog, scaleLinear } from 'd3';
import { drawXYAxes, fmt, hline, MUTED, valueLabel } from './frame';
import {
  createSeriesFrame,
  dot,
  drawSeriesLegend,
  linePath,
  seriesColor,
  seriesGroup,
  whisker,
} from './series';
import type { ChartOptions } from './types';

export interface CompressionPoint {
  /** Item budget. */
  k: number;
  /** Mean Kendall τ over folds. */
  tau: number;
  sd: number;
}

export interface CompressionSeries {
  model: string;
  points: CompressionPoint[];
  /** Smallest budget whose τ reaches the target (null: none does). */
  smallestK: number | null;
}

export interface CompressionData {
  series: CompressionSeries[];
  /** τ a budget must reach (the paper's 0.85). */
  target: number;
}

const PAD = 10;
const DODGE = 4;

/** The budgets of all series, ascending and distinct. */
export function budgetsOf(data: CompressionData): number[] {
  return [...new Set(data.series.flatMap((s) => s.points.map((p) => p.k)))].sort((a, b) => a - b);
}

/**
 * Benchmark compression (paper Fig. 3a): Kendall τ between the ranking of
 * held-out LLMs by a k-item adaptive test and by the whole bank, against k on
 * a log axis, per model, with ±sd over folds, the target line and a ring at
 * each model's smallest sufficient k.
 */
export function compressionChart(data: CompressionData, opts: ChartOptions = {}): SVGSVGElement {
  const f = createSeriesFrame(opts, {
    height: 340,
    title: `Ranking agreement τ against the number of adaptively chosen items (target ${fmt(data.target)})`,
    series: data.series.length,
    right: 64,
  });
  const ks = budgetsOf(data);
  const lo = ks[0] ?? 1;
  const hi = ks[ks.length - 1] ?? 10;
  const x = scaleLog()
    .domain(lo < hi ? [lo, hi] : [lo / 2, lo * 2])
    .range([PAD, f.innerWidth - PAD]);
  const low = Math.max(
    -1,
    Math.min(
      0,
      ...data.series
        .flatMap((s) => s.points.map((p) => p.tau - (p.sd || 0)))
        .filter(Number.isFinite),
    ),
  );
  const y = scaleLinear().domain([low, 1]).nice().range([f.innerHeight, 0]);
  drawXYAxes(
    f,
    axisBottom(x).tickValues(ks).tickFormat(format('d')),
    axisLeft(y).ticks(6),
    'Items per LLM (k, log scale)',
    'Kendall τ with the whole bank',
  );

  const target = f.plot.append('g').attr('class', 'target');
  hline(f, target, y(data.target), MUTED, '5 4');
  valueLabel(target, f.innerWidth + 6, y(data.target), `τ = ${fmt(data.target)}`).attr(
    'fill',
    MUTED,
  );

  data.series.forEach((s, i) => {
    const color = seriesColor(i);
    const pts = s.points.filter((p) => Number.isFinite(p.tau)).sort((a, b) => a.k - b.k);
    // Series sit a few pixels apart at each k, so equal τs and their whiskers stay visible.
    const dodge = (i - (data.series.length - 1) / 2) * DODGE;
    const g = seriesGroup(f.plot, s.model).attr('transform', `translate(${dodge},0)`);
    const path = line<CompressionPoint>()
      .x((p) => x(p.k))
      .y((p) => y(p.tau));
    linePath(g, 'line', color, path(pts));
    for (const p of pts) {
      // τ lies in [−1, 1], so the whisker does too.
      const [t0, t1] = [Math.max(-1, p.tau - p.sd), Math.min(1, p.tau + p.sd)];
      if (p.sd > 0) whisker(g, [x(p.k), y(t0)], [x(p.k), y(t1)], color);
      dot(g, { class: 'point', 'data-k': p.k }, [x(p.k), y(p.tau)], 3.5, color)
        .append('title')
        .text(`${s.model}, k = ${p.k}: τ = ${fmt(p.tau)} ± ${fmt(p.sd)}`);
    }
    const star = pts.find((p) => p.k === s.smallestK);
    if (star)
      dot(g, { class: 'smallest' }, [x(star.k), y(star.tau)], 8, 'none')
        .attr('stroke', color)
        .attr('stroke-width', 2)
        .append('title')
        .text(`${s.model}: ${star.k} items reach τ ≥ ${fmt(data.target)}`);
  });

  drawSeriesLegend(
    f,
    data.series.map((s, i) => ({
      label: `${s.model} (smallest k: ${s.smallestK ?? 'none'})`,
      color: seriesColor(i),
    })),
    40,
  );
  return f.svg.node()!;
}
