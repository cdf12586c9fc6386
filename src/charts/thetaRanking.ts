import { axisTop, extent, format, scaleLinear } from 'd3';
import { axisLabel, createFrame, drawAxis, fmt, labelMargin, MUTED, truncate } from './frame';
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

const ROW = 16;
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
  const margin = { top: 40, right: 16, bottom: 16, left: labelMargin(rows.map((r) => r.id)) };
  const f = createFrame(opts, {
    width: 640,
    height: margin.top + margin.bottom + Math.max(1, rows.length) * ROW,
    title: `${rows.length} LLMs ranked by ability θ (±SE), with accuracy`,
    margin,
  });
  f.svg.attr('role', 'group');
  const thetaWidth = Math.round((f.innerWidth - GAP) * 0.62);
  const accLeft = thetaWidth + GAP;
  const [lo = -1, hi = 1] = extent(
    rows.flatMap((r) => [r.theta - (r.se || 0), r.theta + (r.se || 0)]).filter(Number.isFinite),
  );
  const x = scaleLinear()
    .domain(lo < hi ? [lo, hi] : [lo - 1, hi + 1])
    .nice()
    .range([0, thetaWidth]);
  const xa = scaleLinear().domain([0, 1]).range([accLeft, f.innerWidth]);
  const yOf = (i: number) => i * ROW + ROW / 2;

  drawAxis(f.plot, axisTop(x).ticks(5), 'translate(0,-4)');
  drawAxis(f.plot, axisTop(xa).ticks(4).tickFormat(format('.0%')), 'translate(0,-4)');
  axisLabel(f.plot, 'Ability θ (±SE)', thetaWidth / 2, -26).attr('fill', THETA_COLOR);
  axisLabel(f.plot, 'Accuracy', (accLeft + f.innerWidth) / 2, -26).attr('fill', ACC_COLOR);
  if (x.domain()[0] < 0 && x.domain()[1] > 0) {
    f.plot
      .append('line')
      .attr('class', 'zero')
      .attr('x1', x(0))
      .attr('x2', x(0))
      .attr('y2', rows.length * ROW)
      .attr('stroke', MUTED)
      .attr('stroke-dasharray', '2 3');
  }

  const body = f.plot.append('g').attr('class', 'rows');
  rows.forEach((r, i) => {
    const label = `${i + 1}. ${r.id}: θ = ${fmt(r.theta)} ± ${fmt(r.se)}, accuracy ${fmt(r.accuracy * 100, 1)}%`;
    const row = body
      .append('g')
      .attr('class', 'llm-row')
      .attr('data-llm', r.id)
      .attr('tabindex', 0)
      .attr('role', 'button')
      .attr('aria-label', label)
      .attr('transform', `translate(0,${yOf(i)})`);
    row.append('title').text(label);
    row
      .append('rect')
      .attr('class', 'hit')
      .attr('x', -margin.left)
      .attr('y', -ROW / 2)
      .attr('width', f.width)
      .attr('height', ROW)
      .attr('fill', 'currentColor')
      .attr('fill-opacity', 0);
    row
      .append('text')
      .attr('x', -6)
      .attr('dy', '0.32em')
      .attr('text-anchor', 'end')
      .attr('fill', 'currentColor')
      .text(truncate(r.id));
    if (Number.isFinite(r.theta)) {
      const se = Number.isFinite(r.se) ? r.se : 0;
      row
        .append('line')
        .attr('class', 'whisker')
        .attr('x1', x(r.theta - se))
        .attr('x2', x(r.theta + se))
        .attr('stroke', THETA_COLOR)
        .attr('stroke-width', 1.5);
      row
        .append('circle')
        .attr('class', 'theta')
        .attr('cx', x(r.theta))
        .attr('r', 3.5)
        .attr('fill', THETA_COLOR);
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
