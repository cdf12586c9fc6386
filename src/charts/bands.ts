import { axisBottom, scaleLinear } from 'd3';
import { axisLabel, createFrame, drawAxis, fmt } from './frame';
import { codedLabel, drawLegend, optionColor, optionLabel, optionLetter, textOn } from './palette';
import type { ChartOptions } from './types';

export interface Band {
  option: number;
  from: number;
  to: number;
}

export interface BandsData {
  /** θ ranges over which `option` is the most likely response. */
  bands: Band[];
  labels: string[];
  key: number;
}

const DOMAIN: [number, number] = [-4, 4];

/** Clips bands to [lo, hi], dropping empty ones and ordering by `from`. */
export function clipBands(bands: Band[], [lo, hi]: [number, number] = DOMAIN): Band[] {
  return bands
    .map((b) => ({
      option: b.option,
      from: Math.max(lo, Math.min(b.from, b.to)),
      to: Math.min(hi, Math.max(b.from, b.to)),
    }))
    .filter((b) => b.to > b.from)
    .sort((a, b) => a.from - b.from);
}

/** Coloured bands along θ ∈ [−4, 4] showing which option is the most likely response. */
export function bandsChart(data: BandsData, opts: ChartOptions = {}): SVGSVGElement {
  const f = createFrame(opts, {
    width: 640,
    height: 110,
    title: 'Most likely response across ability θ',
    margin: { top: 10, bottom: 52, left: 20, right: 20 },
  });
  const bands = clipBands(data.bands);
  const x = scaleLinear().domain(DOMAIN).range([0, f.innerWidth]);
  const h = f.innerHeight;

  const g = f.plot.append('g').attr('class', 'bands');
  for (const b of bands) {
    const isKey = b.option === data.key;
    const label = optionLabel(data.labels, b.option, data.key);
    const band = g.append('g').attr('class', 'band').attr('data-option', b.option);
    band.append('title').text(`${label}: θ ∈ [${fmt(b.from)}, ${fmt(b.to)}]`);
    band
      .append('rect')
      .attr('x', x(b.from))
      .attr('y', 0)
      .attr('width', x(b.to) - x(b.from))
      .attr('height', h)
      .attr('fill', optionColor(b.option))
      .attr('stroke', isKey ? 'currentColor' : '#fff')
      .attr('stroke-width', isKey ? 2 : 1);
    // Letter codes fit narrow bands; full labels are in the title and legend.
    const code = optionLetter(b.option) + (isKey ? ' (key)' : '');
    if (x(b.to) - x(b.from) >= code.length * 7 + 4) {
      band
        .append('text')
        .attr('x', (x(b.from) + x(b.to)) / 2)
        .attr('y', h / 2)
        .attr('dy', '0.32em')
        .attr('text-anchor', 'middle')
        .attr('fill', textOn(optionColor(b.option)))
        .attr('font-weight', isKey ? 'bold' : null)
        .text(code);
    }
  }

  drawAxis(f.plot, axisBottom(x).ticks(8), `translate(0,${h})`);
  axisLabel(f.plot, 'Ability θ', f.innerWidth / 2, h + 30);
  const seen = [...new Set(bands.map((b) => b.option))].sort((a, b) => a - b);
  drawLegend(
    f.plot,
    seen.map((k) => ({
      label: codedLabel(data.labels, k, data.key),
      color: optionColor(k),
      shape: 'rect' as const,
      emphasis: k === data.key,
    })),
    0,
    h + 44,
    { horizontal: true, maxChars: 18 },
  );
  return f.svg.node()!;
}
