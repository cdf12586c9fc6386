import { axisBottom, axisLeft, axisRight, extent, line, max, min, scaleLinear } from 'd3';
import { axisLabel, createFrame, drawAxis, fmt } from './frame';
import type { ChartOptions } from './types';

export interface TestInfoData {
  theta: number[];
  /** Test information I(θ). */
  info: number[];
  /** The fitted LLMs' θ: the SE axis always spans the SE over their range. */
  llmTheta?: number[];
}

/** SE(θ) = 1/√I(θ); Infinity where I ≤ 0 or undefined. */
export function standardError(info: number[]): number[] {
  return info.map((i) => (Number.isFinite(i) && i > 0 ? 1 / Math.sqrt(i) : Infinity));
}

const INFO_COLOR = '#4e79a7';
const SE_COLOR = '#e15759';
// SE explodes where information vanishes; past this multiple of the best SE the
// curve leaves the plot rather than squashing the informative region.
const SE_RANGE = 5;

/** Test information curve with SE(θ) = 1/√I on a right axis. */
export function testInfoChart(data: TestInfoData, opts: ChartOptions = {}): SVGSVGElement {
  const f = createFrame(opts, {
    width: 640,
    height: 300,
    title: 'Test information and standard error of θ',
    margin: { right: 64 },
  });
  const se = standardError(data.info);
  const idx = data.theta.map((_, i) => i).filter((i) => Number.isFinite(data.theta[i]));
  const [lo = -4, hi = 4] = extent(idx, (i) => data.theta[i]);
  const x = scaleLinear().domain([lo, hi]).range([0, f.innerWidth]);
  const y = scaleLinear()
    .domain([0, max(idx, (i) => data.info[i]) || 1])
    .nice()
    .range([f.innerHeight, 0]);
  const finiteSe = idx.map((i) => se[i]).filter(Number.isFinite);
  const seMin = min(finiteSe) ?? 1;
  // Where the LLMs sit, the SE must be readable however large it gets there.
  const [tLo, tHi] = extent(data.llmTheta ?? []);
  const seOverLlms =
    tLo === undefined || tHi === undefined
      ? 0
      : (max(
          idx.filter((i) => data.theta[i] >= tLo && data.theta[i] <= tHi && Number.isFinite(se[i])),
          (i) => se[i],
        ) ?? 0);
  const seCap = Math.max(Math.min(max(finiteSe) ?? 1, seMin * SE_RANGE), seOverLlms);
  const y2 = scaleLinear()
    .domain([0, seCap > 0 ? seCap : 1])
    .nice()
    .clamp(true)
    .range([f.innerHeight, 0]);

  drawAxis(f.plot, axisBottom(x).ticks(8), `translate(0,${f.innerHeight})`);
  drawAxis(f.plot, axisLeft(y).ticks(5)).attr('color', INFO_COLOR);
  drawAxis(f.plot, axisRight(y2).ticks(5), `translate(${f.innerWidth},0)`).attr('color', SE_COLOR);
  axisLabel(f.plot, 'Ability θ', f.innerWidth / 2, f.innerHeight + 32);
  axisLabel(f.plot, 'Test information I(θ)', -38, f.innerHeight / 2, true).attr('fill', INFO_COLOR);
  axisLabel(f.plot, 'SE(θ) = 1/√I', f.innerWidth + 54, f.innerHeight / 2, true).attr(
    'fill',
    SE_COLOR,
  );

  const peak = idx.reduce((b, i) => (data.info[i] > (data.info[b] ?? -Infinity) ? i : b), idx[0]);
  f.plot
    .append('path')
    .attr('class', 'info')
    .attr('data-series', 'info')
    .attr('fill', 'none')
    .attr('stroke', INFO_COLOR)
    .attr('stroke-width', 2)
    .attr(
      'd',
      line<number>()
        .defined((i) => Number.isFinite(data.info[i]))
        .x((i) => x(data.theta[i]))
        .y((i) => y(data.info[i]))(idx),
    )
    .append('title')
    .text(
      peak === undefined
        ? 'Test information'
        : `Test information, peak ${fmt(data.info[peak], 3)} at θ = ${fmt(data.theta[peak])}`,
    );
  f.plot
    .append('path')
    .attr('class', 'se')
    .attr('data-series', 'se')
    .attr('fill', 'none')
    .attr('stroke', SE_COLOR)
    .attr('stroke-width', 1.5)
    .attr('stroke-dasharray', '5 3')
    .attr(
      'd',
      // Clamped, not cut: beyond the axis the line runs along its top edge
      // (no stray fragments), and a marker says the SE is off the scale there.
      line<number>()
        .defined((i) => Number.isFinite(se[i]))
        .x((i) => x(data.theta[i]))
        .y((i) => y2(se[i]))(idx),
    )
    .append('title')
    .text(`Standard error of θ, minimum ${fmt(seMin, 3)}`);
  const off = idx.filter((i) => !(se[i] <= y2.domain()[1]));
  if (off.length)
    f.plot
      .append('text')
      .attr('class', 'se-off-scale')
      .attr('x', x(data.theta[off[0]]))
      .attr('y', -4)
      // Near the right edge the note would run past the plot: end it at the mark instead.
      .attr('text-anchor', x(data.theta[off[0]]) > f.innerWidth * 0.6 ? 'end' : 'start')
      .attr('font-size', 11)
      .attr('fill', SE_COLOR)
      .text('↑ SE above the axis');
  if (tLo !== undefined && tHi !== undefined)
    f.plot
      .append('rect')
      .attr('class', 'llm-range')
      .attr('x', x(tLo))
      .attr('width', Math.max(1, x(tHi) - x(tLo)))
      .attr('y', f.innerHeight - 4)
      .attr('height', 4)
      .attr('fill', '#999')
      .append('title')
      .text(`θ range of the fitted LLMs: ${fmt(tLo)} to ${fmt(tHi)}`);
  return f.svg.node()!;
}
