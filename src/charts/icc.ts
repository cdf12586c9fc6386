import { axisBottom, axisLeft, extent, line, scaleLinear } from 'd3';
import { axisLabel, createFrame, drawAxis, fmt, MUTED } from './frame';
import { codedLabel, drawLegend, optionColor, optionLetter } from './palette';
import type { ChartOptions } from './types';

export interface IccLlm {
  id: string;
  theta: number;
  /** Observed option distribution p_jk for this item. */
  probs: number[];
}

export interface IccData {
  /** θ grid, ascending (usually [−4, 4]). */
  theta: number[];
  /** Model option probabilities, traces[gridIndex][option]. */
  traces: number[][];
  /** Option labels, one per option. */
  labels: string[];
  /** Index of the correct option. */
  key: number;
  llms?: IccLlm[];
  /** What the curves stand for, in words, drawn under the legend and in each curve's tooltip. */
  curveNote?: string;
}

/** Tooltip text for one LLM's observed distribution, e.g. "gpt: A 0.12, B 0.80 (key)". */
export function llmProbsTitle(llm: IccLlm, key: number): string {
  const parts = llm.probs.map((p, k) => `${optionLetter(k)} ${fmt(p)}${k === key ? ' (key)' : ''}`);
  return `${llm.id} (θ = ${fmt(llm.theta)}): ${parts.join(', ')}`;
}

/**
 * Item characteristic curves: one probability trace per option over θ (key
 * option thicker), each LLM's θ as a rug and its observed option
 * probabilities as points at (θ_j, p_jk).
 */
export function iccChart(data: IccData, opts: ChartOptions = {}): SVGSVGElement {
  const { node, more } = iccChartParts(data, opts);
  for (const draw of more) draw();
  return node;
}

/** LLMs whose points one step of `iccChartParts` draws. */
export const ICC_LLMS_PER_STEP = 48;

/**
 * `iccChart` in pieces: the node with its axes, curves and legend, and the
 * steps that add the LLMs' rug marks and points, `llmsPerStep` LLMs each (at
 * 189 LLMs the points were most of a long main-thread task). Running every
 * step, in order, gives `iccChart`'s picture.
 */
export function iccChartParts(
  data: IccData,
  opts: ChartOptions = {},
  llmsPerStep = ICC_LLMS_PER_STEP,
): { node: SVGSVGElement; more: (() => void)[] } {
  const K = data.labels.length;
  const f = createFrame(opts, {
    width: 640,
    height: 320,
    title: `Option characteristic curves (${K} options)`,
    margin: { right: 170 },
  });
  const [lo = -4, hi = 4] = extent(data.theta);
  const x = scaleLinear().domain([lo, hi]).range([0, f.innerWidth]).clamp(true);
  const y = scaleLinear().domain([0, 1]).range([f.innerHeight, 0]);

  drawAxis(f.plot, axisBottom(x).ticks(8), `translate(0,${f.innerHeight})`);
  drawAxis(f.plot, axisLeft(y).ticks(5));
  axisLabel(f.plot, 'Ability θ', f.innerWidth / 2, f.innerHeight + 32);
  axisLabel(f.plot, 'P(option)', -36, f.innerHeight / 2, true);

  // Draw the key last so it sits on top of the distractors.
  const order = [...Array(K).keys()].filter((k) => k !== data.key);
  if (data.key >= 0 && data.key < K) order.push(data.key);
  const traces = f.plot.append('g').attr('class', 'traces').attr('fill', 'none');
  for (const k of order) {
    const path = line<number>()
      .x((i) => x(data.theta[i]))
      .y((i) => y(data.traces[i]?.[k] ?? NaN))
      .defined((i) => Number.isFinite(data.traces[i]?.[k]));
    traces
      .append('path')
      .attr('class', 'trace')
      .attr('data-option', k)
      .attr('stroke', optionColor(k))
      .attr('stroke-width', k === data.key ? 3.5 : 1.75)
      .attr('d', path(data.theta.map((_, i) => i)))
      .append('title')
      .text(
        `Option ${codedLabel(data.labels, k, data.key)}: the model's P(option) over θ` +
          (data.curveNote ? ` (${data.curveNote})` : ''),
      );
  }

  const llms = (data.llms ?? []).filter((l) => Number.isFinite(l.theta));
  const rug = f.plot.append('g').attr('class', 'rug').attr('stroke', 'currentColor');
  const points = f.plot.append('g').attr('class', 'llm-points').attr('fill-opacity', 0.7);
  const drawLlm = (llm: IccLlm) => {
    const title = llmProbsTitle(llm, data.key);
    rug
      .append('line')
      .attr('data-llm', llm.id)
      .attr('x1', x(llm.theta))
      .attr('x2', x(llm.theta))
      .attr('y1', f.innerHeight)
      .attr('y2', f.innerHeight - 6)
      .attr('stroke-opacity', 0.5)
      .append('title')
      .text(`${llm.id}: θ = ${fmt(llm.theta)}`);
    // One group per LLM carries the title its points share: a title per point
    // made thousands of nodes at 189 LLMs, a long main-thread task to build.
    const group = points.append('g').attr('data-llm', llm.id);
    group.append('title').text(title);
    const cx = x(llm.theta);
    llm.probs.forEach((p, k) => {
      if (!Number.isFinite(p)) return;
      group
        .append('circle')
        .attr('data-llm', llm.id)
        .attr('data-option', k)
        .attr('cx', cx)
        .attr('cy', y(p))
        .attr('r', k === data.key ? 3 : 2.5)
        .attr('fill', optionColor(k));
    });
  };
  const more: (() => void)[] = [];
  const per = Math.max(1, llmsPerStep);
  for (let a = 0; a < llms.length; a += per)
    more.push(() => llms.slice(a, a + per).forEach(drawLlm));

  const legend = drawLegend(
    f.plot,
    [
      ...data.labels.map((_, k) => ({
        label: codedLabel(data.labels, k, data.key),
        color: optionColor(k),
        emphasis: k === data.key,
      })),
      ...(llms.length
        ? [{ label: "an LLM's observed P", color: MUTED, shape: 'dot' as const }]
        : []),
    ],
    f.innerWidth + 16,
    8,
  );
  if (data.curveNote) {
    // A few words a line: detached nodes cannot measure text.
    const words = `Curves: ${data.curveNote}.`.split(' ');
    const lines: string[] = [];
    for (const w of words) {
      const last = lines.length - 1;
      if (last >= 0 && (lines[last] + ' ' + w).length <= 24) lines[last] += ' ' + w;
      else lines.push(w);
    }
    const note = legend
      .append('text')
      .attr('class', 'curve-note')
      .attr('y', (data.labels.length + (llms.length ? 1 : 0)) * 16 + 10)
      .attr('fill', MUTED);
    lines.forEach((l, i) =>
      note
        .append('tspan')
        .attr('x', 0)
        .attr('dy', i ? '1.2em' : 0)
        .text(l),
    );
  }
  return { node: f.svg.node()!, more };
}
