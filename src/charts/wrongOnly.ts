import { axisBottom, axisLeft, scaleBand, scaleLinear } from 'd3';
import { axisLabel, createFrame, drawAxis, fmt, labelMargin, MUTED, truncate } from './frame';
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
const ROW = 44;

/**
 * Ability from wrong answers alone (paper Table 3): agreement of held-out θ
 * with the full-information θ per scenario, Spearman and Pearson side by
 * side, mean ± sd over folds.
 */
export function wrongOnlyChart(data: WrongOnlyRow[], opts: ChartOptions = {}): SVGSVGElement {
  const names = data.map((r) => r.scenario);
  const margin = { top: 32, right: 44, bottom: 36, left: labelMargin(names) };
  const f = createFrame(opts, {
    width: 640,
    height: margin.top + margin.bottom + Math.max(1, data.length) * ROW,
    title: 'Agreement of held-out θ with the full-information θ',
    margin,
  });
  const low = Math.min(
    0,
    ...data.flatMap((r) => METRICS.map((m) => r[m.key].mean - (r[m.key].sd || 0))),
  );
  const x = scaleLinear()
    .domain([Number.isFinite(low) ? low : 0, 1])
    .nice()
    .range([0, f.innerWidth]);
  const y = scaleBand<number>()
    .domain(data.map((_, i) => i))
    .range([0, f.innerHeight])
    .padding(0.2);
  const inner = scaleBand<string>()
    .domain(METRICS.map((m) => m.key))
    .range([0, y.bandwidth()])
    .padding(0.08);

  drawAxis(f.plot, axisBottom(x).ticks(6), `translate(0,${f.innerHeight})`);
  drawAxis(
    f.plot,
    axisLeft(y).tickFormat((i) => truncate(names[i])),
  );
  axisLabel(f.plot, 'Correlation with the reference θ', f.innerWidth / 2, f.innerHeight + 32);
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
      g.append('rect')
        .attr('class', 'bar')
        .attr('x', Math.min(x(0), x(v.mean)))
        .attr('y', top)
        .attr('width', Math.abs(x(v.mean) - x(0)))
        .attr('height', inner.bandwidth())
        .attr('fill', m.color);
      // Correlations stop at 1, so the whisker does too.
      const hi = Math.min(1, v.mean + (v.sd || 0));
      if (v.sd > 0) whisker(g, [x(v.mean - v.sd), mid], [x(hi), mid], 'currentColor');
      g.append('text')
        .attr('class', 'value')
        .attr('x', x(Math.max(hi, 0)) + 4)
        .attr('y', mid)
        .attr('dy', '0.32em')
        .attr('fill', 'currentColor')
        .text(fmt(v.mean, 2));
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
