import { axisTop, extent, scaleLinear } from 'd3';
import { axisLabel, createFrame, drawAxis, fmt, labelMargin, MUTED, truncate } from './frame';
import type { ChartOptions } from './types';

export interface ScoredLlmRow {
  id: string;
  theta: number;
  se: number;
}

export interface ScoredLlmsData {
  /** LLMs scored against the bank. */
  scored: ScoredLlmRow[];
  /** The bank's calibration LLMs: the scale the scores are on. */
  calibration: ScoredLlmRow[];
}

export type ScoredGroup = 'new' | 'calibration';

const ROW = 16;
const COLORS: Record<ScoredGroup, string> = { new: '#e15759', calibration: '#8c8c8c' };

/** Both groups in one list, highest θ first (ties: new LLMs first, then by id). */
export function mergeByTheta(data: ScoredLlmsData): (ScoredLlmRow & { group: ScoredGroup })[] {
  const key = (t: number) => (Number.isFinite(t) ? t : -Infinity);
  return [
    ...data.scored.map((r) => ({ ...r, group: 'new' as const })),
    ...data.calibration.map((r) => ({ ...r, group: 'calibration' as const })),
  ].sort(
    (a, b) =>
      key(b.theta) - key(a.theta) ||
      (a.group === b.group ? 0 : a.group === 'new' ? -1 : 1) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/**
 * New LLMs' θ (±SE) placed among the calibration LLMs' θ on the bank's scale:
 * one `.llm-row` per LLM (`data-llm`, `data-group` new | calibration), ranked
 * by θ, new LLMs in colour and bold.
 */
export function scoredLlmsChart(data: ScoredLlmsData, opts: ChartOptions = {}): SVGSVGElement {
  const rows = mergeByTheta(data);
  const margin = { top: 60, right: 16, bottom: 12, left: labelMargin(rows.map((r) => r.id)) };
  const f = createFrame(opts, {
    width: 640,
    height: margin.top + margin.bottom + Math.max(1, rows.length) * ROW,
    title: `${data.scored.length} scored LLMs among ${data.calibration.length} calibration LLMs on the bank's θ scale`,
    margin,
  });
  f.svg.attr('role', 'group');
  const [lo = -1, hi = 1] = extent(
    rows.flatMap((r) => [r.theta - (r.se || 0), r.theta + (r.se || 0)]).filter(Number.isFinite),
  );
  const x = scaleLinear()
    .domain(lo < hi ? [lo, hi] : [lo - 1, hi + 1])
    .nice()
    .range([0, f.innerWidth]);
  drawAxis(f.plot, axisTop(x).ticks(6), 'translate(0,-4)');
  axisLabel(f.plot, 'Ability θ (±SE), bank scale', f.innerWidth / 2, -26);
  const legend = f.plot.append('g').attr('class', 'legend').attr('transform', 'translate(0,-52)');
  (['new', 'calibration'] as const).forEach((g, i) => {
    const item = legend.append('g').attr('transform', `translate(${i * 120},0)`);
    item.append('circle').attr('r', 4).attr('fill', COLORS[g]);
    item
      .append('text')
      .attr('x', 8)
      .attr('dy', '0.32em')
      .attr('fill', 'currentColor')
      .text(g === 'new' ? 'scored LLM' : 'calibration LLM');
  });
  if (x.domain()[0] < 0 && x.domain()[1] > 0)
    f.plot
      .append('line')
      .attr('class', 'zero')
      .attr('x1', x(0))
      .attr('x2', x(0))
      .attr('y2', rows.length * ROW)
      .attr('stroke', MUTED)
      .attr('stroke-dasharray', '2 3');

  const body = f.plot.append('g').attr('class', 'rows');
  rows.forEach((r, i) => {
    const what = r.group === 'new' ? 'scored' : 'calibration';
    const label = `${i + 1}. ${r.id} (${what}): θ = ${fmt(r.theta)} ± ${fmt(r.se)}`;
    const row = body
      .append('g')
      .attr('class', `llm-row ${r.group}`)
      .attr('data-llm', r.id)
      .attr('data-group', r.group)
      .attr('transform', `translate(0,${i * ROW + ROW / 2})`);
    row.append('title').text(label);
    row
      .append('text')
      .attr('x', -6)
      .attr('dy', '0.32em')
      .attr('text-anchor', 'end')
      .attr('fill', r.group === 'new' ? COLORS.new : 'currentColor')
      .attr('font-weight', r.group === 'new' ? 'bold' : null)
      .text(truncate(r.id));
    if (!Number.isFinite(r.theta)) return;
    const se = Number.isFinite(r.se) ? r.se : 0;
    row
      .append('line')
      .attr('class', 'whisker')
      .attr('x1', x(r.theta - se))
      .attr('x2', x(r.theta + se))
      .attr('stroke', COLORS[r.group])
      .attr('stroke-width', r.group === 'new' ? 2 : 1.5);
    row
      .append('circle')
      .attr('class', 'theta')
      .attr('cx', x(r.theta))
      .attr('r', r.group === 'new' ? 4.5 : 3.5)
      .attr('fill', COLORS[r.group]);
  });
  return f.svg.node()!;
}
