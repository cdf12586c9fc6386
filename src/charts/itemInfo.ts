import { area, axisBottom, axisLeft, extent, line, max, min, scaleLinear } from 'd3';
import { createFrame, drawXYAxes, fmt, scaledTickFormat } from './frame';
import { drawLegend } from './palette';
import type { ChartOptions } from './types';

export interface ItemInfoData {
  theta: number[];
  /** Information retained by binary correctness, per θ. */
  binary: number[];
  /** Additional information from distractor identity, per θ. */
  wrong: number[];
}

export interface StackedInfoPoint {
  theta: number;
  /** Binary layer: [0, binary]. */
  binary: [number, number];
  /** Distractor layer stacked on top: [binary, binary + wrong]. */
  wrong: [number, number];
  total: number;
}

/** Stacks binary (bottom) and distractor (top) information per θ grid point. */
export function stackItemInfo(data: ItemInfoData): StackedInfoPoint[] {
  return data.theta.map((theta, i) => {
    const b = data.binary[i] ?? NaN;
    const w = data.wrong[i] ?? NaN;
    return { theta, binary: [0, b], wrong: [b, b + w], total: b + w };
  });
}

const BINARY_COLOR = '#4e79a7';
const WRONG_COLOR = '#f28e2b';

/** Item information over θ: binary and distractor-identity layers stacked, with the total as a line. */
export function itemInfoChart(data: ItemInfoData, opts: ChartOptions = {}): SVGSVGElement {
  const f = createFrame(opts, {
    width: 640,
    height: 300,
    title: 'Item information: binary correctness and distractor identity',
    margin: { right: 170 },
  });
  const stack = stackItemInfo(data).filter((d) => Number.isFinite(d.total));
  const [lo = -4, hi = 4] = extent(stack, (d) => d.theta);
  const x = scaleLinear().domain([lo, hi]).range([0, f.innerWidth]);
  const top = max(stack, (d) => Math.max(d.total, d.binary[1])) ?? 1;
  const bottom = Math.min(0, min(stack, (d) => Math.min(d.wrong[1], d.binary[1])) ?? 0);
  const y = scaleLinear()
    .domain([bottom, top > bottom ? top : bottom + 1])
    .nice()
    .range([f.innerHeight, 0]);

  // Tiny information (a flat item): ticks scaled by a power of ten named in the title.
  const yt = scaledTickFormat(y.ticks(5));
  drawXYAxes(
    f,
    axisBottom(x).ticks(8),
    axisLeft(y)
      .ticks(5)
      .tickFormat((v) => yt.format(+v)),
    'Ability θ',
    `Fisher information${yt.unit}`,
  );

  const layers = [
    { key: 'binary', label: 'Binary correctness', color: BINARY_COLOR },
    { key: 'wrong', label: 'Distractor identity', color: WRONG_COLOR },
  ] as const;
  for (const layer of layers) {
    const shape = area<StackedInfoPoint>()
      .x((d) => x(d.theta))
      .y0((d) => y(d[layer.key][0]))
      .y1((d) => y(d[layer.key][1]));
    f.plot
      .append('path')
      .attr('class', 'layer')
      .attr('data-layer', layer.key)
      .attr('fill', layer.color)
      .attr('fill-opacity', 0.75)
      .attr('d', shape(stack))
      .append('title')
      .text(layer.label);
  }
  const peak = stack.reduce<StackedInfoPoint | undefined>(
    (best, d) => (!best || d.total > best.total ? d : best),
    undefined,
  );
  f.plot
    .append('path')
    .attr('class', 'total')
    .attr('data-layer', 'total')
    .attr('fill', 'none')
    .attr('stroke', 'currentColor')
    .attr('stroke-width', 1.5)
    .attr(
      'd',
      line<StackedInfoPoint>()
        .x((d) => x(d.theta))
        .y((d) => y(d.total))(stack),
    )
    .append('title')
    .text(
      peak ? `Total information, peak ${fmt(peak.total, 3)} at θ = ${fmt(peak.theta)}` : 'Total',
    );

  drawLegend(
    f.plot,
    [
      ...layers.map((l) => ({ label: l.label, color: l.color, shape: 'rect' as const })),
      { label: 'Total (full response)', color: 'currentColor', emphasis: true },
    ],
    f.innerWidth + 16,
    8,
  );
  return f.svg.node()!;
}
