import { axisTop, format, scaleLinear } from 'd3';
import { axisLabel, drawAxis, fmt } from './frame';
import {
  createLlmRowsFrame,
  LLM_ROW,
  llmRow,
  rowName,
  thetaScale,
  thetaWhisker,
  zeroLine,
} from './llmRows';
import type { ChartOptions } from './types';

export interface ThetaRankingRow {
  id: string;
  theta: number;
  se: number;
  /** Proportion correct in [0, 1]. */
  accuracy: number;
}

/** Sorts LLMs by θ, highest first (ties by id; non-finite θ last). */
export function rankByTheta(rows: ThetaRankingRow[]): ThetaRankingRow[] {
  const key = (t: number) => (Number.isFinite(t) ? t : -Infinity);
  return [...rows].sort((a, b) => key(b.theta) - key(a.theta) || (a.id < b.id ? -1 : 1));
}

const GAP = 28;
const THETA_COLOR = '#4e79a7';
const ACC_COLOR = '#f28e2b';

/**
 * LLMs ranked by θ as dot-and-whisker (±SE) rows with accuracy in a second
 * panel. Rows are focusable `.llm-row` groups (`data-llm`) for the app to
 * attach selection handlers; the root is a labelled group rather than an
 * image because an image's children are hidden from assistive technology.
 */
export function thetaRankingChart(data: ThetaRankingRow[], opts: ChartOptions = {}): SVGSVGElement {
  const rows = rankByTheta(data);
  const f = createLlmRowsFrame(opts, {
    ids: rows.map((r) => r.id),
    title: `${rows.length} LLMs ranked by ability θ (±SE), with accuracy`,
    top: 40,
    bottom: 16,
  });
  const thetaWidth = Math.round((f.innerWidth - GAP) * 0.62);
  const accLeft = thetaWidth + GAP;
  const x = thetaScale(rows, [0, thetaWidth]);
  const xa = scaleLinear().domain([0, 1]).range([accLeft, f.innerWidth]);

  drawAxis(f.plot, axisTop(x).ticks(5), 'translate(0,-4)');
  drawAxis(f.plot, axisTop(xa).ticks(4).tickFormat(format('.0%')), 'translate(0,-4)');
  axisLabel(f.plot, 'Ability θ (±SE)', thetaWidth / 2, -26).attr('fill', THETA_COLOR);
  axisLabel(f.plot, 'Accuracy', (accLeft + f.innerWidth) / 2, -26).attr('fill', ACC_COLOR);
  zeroLine(f.plot, x, rows.length);

  const body = f.plot.append('g').attr('class', 'rows');
  rows.forEach((r, i) => {
    const label = `${i + 1}. ${r.id}: θ = ${fmt(r.theta)} ± ${fmt(r.se)}, accuracy ${fmt(r.accuracy * 100, 1)}%`;
    const attrs = {
      class: 'llm-row',
      'data-llm': r.id,
      tabindex: 0,
      role: 'button',
      'aria-label': label,
    };
    const row = llmRow(body, i, attrs, label);
    row
      .append('rect')
      .attr('class', 'hit')
      .attr('x', -f.margin.left)
      .attr('y', -LLM_ROW / 2)
      .attr('width', f.width)
      .attr('height', LLM_ROW)
      .attr('fill', 'currentColor')
      .attr('fill-opacity', 0);
    rowName(row, r.id);
    if (Number.isFinite(r.theta)) {
      thetaWhisker(row, x, r, { color: THETA_COLOR, strokeWidth: 1.5, radius: 3.5 });
    }
    if (Number.isFinite(r.accuracy)) {
      row
        .append('circle')
        .attr('class', 'accuracy')
        .attr('cx', xa(Math.max(0, Math.min(1, r.accuracy))))
        .attr('r', 3.5)
        .attr('fill', ACC_COLOR);
    }
  });
  return f.svg.node()!;
}
