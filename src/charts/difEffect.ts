import { axisBottom, max, scaleBand, scaleLinear } from 'd3';
import { axisLabel, createFrame, drawAxis, fmt, guideLine, MUTED } from './frame';
import type { ChartOptions } from './types';

export interface DifEffectRow {
  id: string;
  effect: number;
  lo: number;
  hi: number;
  flagged: boolean;
}

export interface DifEffectData {
  rows: DifEffectRow[];
  /** x-axis label, e.g. 'Δ_MH (negative: harder for the focal group)'. */
  label: string;
  /** Effect sizes marked by dashed guides on both sides of 0 (e.g. ETS 1 and 1.5). */
  guides?: number[];
}

/** Per-item DIF effect with its interval, one row per item in the given order. */
export function difEffectChart(data: DifEffectData, opts: ChartOptions = {}): SVGSVGElement {
  const rowH = 16;
  const f = createFrame(
    { ...opts, height: opts.height ?? Math.max(120, data.rows.length * rowH + 60) },
    {
      width: 520,
      height: 300,
      title: 'DIF effect per item with 95% interval',
      margin: { left: 150 },
    },
  );
  const finite = data.rows.filter((r) => Number.isFinite(r.effect));
  const ext = max(finite, (r) => Math.max(Math.abs(r.lo), Math.abs(r.hi), Math.abs(r.effect))) || 1;
  const reach = Math.max(ext, ...(data.guides ?? [])) * 1.05;
  const x = scaleLinear().domain([-reach, reach]).nice().range([0, f.innerWidth]);
  const y = scaleBand<string>()
    .domain(data.rows.map((r) => r.id))
    .range([0, f.innerHeight])
    .padding(0.3);
  drawAxis(f.plot, axisBottom(x).ticks(7), `translate(0,${f.innerHeight})`);
  axisLabel(f.plot, data.label, f.innerWidth / 2, f.innerHeight + 32);
  const guides = f.plot.append('g').attr('class', 'guides').attr('stroke', MUTED);
  for (const v of [0, ...(data.guides ?? []).flatMap((g) => [-g, g])])
    guideLine(guides, [x(v), 0], [x(v), f.innerHeight], v === 0 ? null : '4 3');
  const rows = f.plot.append('g').attr('class', 'rows');
  for (const r of data.rows) {
    const cy = (y(r.id) ?? 0) + y.bandwidth() / 2;
    const g = rows
      .append('g')
      .attr('data-item', r.id)
      .attr('data-flagged', r.flagged ? 'true' : 'false');
    g.append('text')
      .attr('x', -6)
      .attr('y', cy)
      .attr('dy', '0.32em')
      .attr('text-anchor', 'end')
      .text(r.id.length > 22 ? `${r.id.slice(0, 21)}…` : r.id);
    if (!Number.isFinite(r.effect)) continue;
    const color = r.flagged ? '#d62728' : '#4e79a7';
    if (Number.isFinite(r.lo) && Number.isFinite(r.hi))
      g.append('line')
        .attr('class', 'interval')
        .attr('x1', x(Math.max(-reach, r.lo)))
        .attr('x2', x(Math.min(reach, r.hi)))
        .attr('y1', cy)
        .attr('y2', cy)
        .attr('stroke', color);
    g.append('circle')
      .attr('cx', x(r.effect))
      .attr('cy', cy)
      .attr('r', 3.5)
      .attr('fill', color)
      .append('title')
      .text(`${r.id}: ${fmt(r.effect, 2)} [${fmt(r.lo, 2)}, ${fmt(r.hi, 2)}]`);
  }
  return f.svg.node()!;
}
