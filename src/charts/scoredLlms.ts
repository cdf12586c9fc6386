import { axisTop } from 'd3';
import { axisLabel, drawAxis, fmt } from './frame';
import { createLlmRowsFrame, llmRow, rowName, thetaScale, thetaWhisker, zeroLine } from './llmRows';
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
  const f = createLlmRowsFrame(opts, {
    ids: rows.map((r) => r.id),
    title: `${data.scored.length} scored LLMs among ${data.calibration.length} calibration LLMs on the bank's θ scale`,
    top: 60,
    bottom: 12,
  });
  const x = thetaScale(rows, [0, f.innerWidth]);
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
  zeroLine(f.plot, x, rows.length);

  const body = f.plot.append('g').attr('class', 'rows');
  rows.forEach((r, i) => {
    const isNew = r.group === 'new';
    const what = isNew ? 'scored' : 'calibration';
    const label = `${i + 1}. ${r.id} (${what}): θ = ${fmt(r.theta)} ± ${fmt(r.se)}`;
    const attrs = { class: `llm-row ${r.group}`, 'data-llm': r.id, 'data-group': r.group };
    const row = llmRow(body, i, attrs, label);
    rowName(row, r.id, isNew ? COLORS.new : 'currentColor', isNew);
    if (!Number.isFinite(r.theta)) return;
    thetaWhisker(row, x, r, {
      color: COLORS[r.group],
      strokeWidth: isNew ? 2 : 1.5,
      radius: isNew ? 4.5 : 3.5,
    });
  });
  return f.svg.node()!;
}
