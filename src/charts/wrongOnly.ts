import { scaleBand, scaleLinear } from 'd3';
import { createRowFrame, drawRowAxes, fmt, hbar, MUTED, valueLabel } from './frame';
import { drawLegend } from './palette';
import { whisker } from './series';
import type { ChartOptions } from './types';

export interface MeanSd {
  mean: number;
  sd: number;
}

export interface WrongOnlyRow {
  /** Scenario shown on the axis ('Correctness only', 'Wrong answers only'). */
  scenario: string;
  spearman: MeanSd;
  pearson: MeanSd;
}

const METRICS = [
  { key: 'spearman', label: 'Spearman', color: '#4e79a7' },
  { key: 'pearson', label: 'Pearson', color: '#f28e2b' },
] as const;

/**
 * Ability from wrong answers alone (paper Table 3): agreement of held-out θ
 * with the full-information θ per scenario, Spearman and Pearson side by
 * side, mean ± sd over folds.
 */
export function wrongOnlyChart(data: WrongOnlyRow[], opts: ChartOptions = {}): SVGSVGElement {
  const f = createRowFrame(opts, {
    title: 'Agreement of held-out θ with the full-information θ',
    names: data.map((r) => r.scenario),
    rowHeight: 44,
    top: 32,
    right: 44,
  });
  const low = Math.min(
    0,
    ...data.flatMap((r) => METRICS.map((m) => r[m.key].mean - (r[m.key].sd || 0))),
  );
  const x = scaleLinear()
    .domain([Number.isFinite(low) ? low : 0, 1])
    .nice()
    .range([0, f.innerWidth]);
  const y = f.y;
  const inner = scaleBand<string>()
    .domain(METRICS.map((m) => m.key))
    .range([0, y.bandwidth()])
    .padding(0.08);
  drawRowAxes(f, x, 'Correlation with the reference θ');
  f.plot
    .append('line')
    .attr('class', 'zero')
    .attr('x1', x(0))
    .attr('x2', x(0))
    .attr('y2', f.innerHeight)
    .attr('stroke', MUTED);

  data.forEach((r, i) => {
    for (const m of METRICS) {
      const v = r[m.key];
      if (!Number.isFinite(v.mean)) continue;
      const top = y(i)! + inner(m.key)!;
      const mid = top + inner.bandwidth() / 2;
      const g = f.plot
        .append('g')
        .attr('class', 'wrong-bar')
        .attr('data-scenario', r.scenario)
        .attr('data-metric', m.key);
      g.append('title').text(`${r.scenario}: ${m.label} ${fmt(v.mean, 3)} ± ${fmt(v.sd, 3)}`);
      hbar(g, x, { y: top, height: inner.bandwidth() }, 0, v.mean, m.color, { class: 'bar' });
      // Correlations stop at 1, so the whisker does too.
      const hi = Math.min(1, v.mean + (v.sd || 0));
      if (v.sd > 0) whisker(g, [x(v.mean - v.sd), mid], [x(hi), mid], 'currentColor');
      valueLabel(g, x(Math.max(hi, 0)) + 4, mid, fmt(v.mean, 2), 'value');
    }
  });

  drawLegend(
    f.plot,
    METRICS.map((m) => ({ label: m.label, color: m.color, shape: 'rect' as const })),
    0,
    -20,
    { horizontal: true },
  );
  return f.svg.node()!;
}
