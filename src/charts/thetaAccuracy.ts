import { axisBottom, axisLeft, type ScaleLinear } from 'd3';
import { createFrame, drawXYAxes, fmt, type Frame, type G } from './frame';
import { drawLegend } from './palette';
import { scatterScales, seriesColor } from './series';
import type { ChartOptions } from './types';

export interface ThetaAccuracyPoint {
  /** The LLM. */
  label: string;
  /** Share correct, 0..1. */
  accuracy: number;
  theta: number;
  thetaSE?: number;
  /** Rank by θ and by accuracy (1 = best), for the tooltip. */
  rankTheta?: number;
  rankAccuracy?: number;
  /** 1-based marker of an LLM whose ranks disagree most; absent for the rest. */
  marker?: number;
}

export interface ThetaAccuracyData {
  /** The fit's model, in the legend. */
  model: string;
  /** Spearman ρ of θ and accuracy, in the legend. */
  rho?: number;
  points: ThetaAccuracyPoint[];
  /** One sentence per marked LLM, in marker order. */
  notes: { marker: number; text: string }[];
}

/** Characters per note line (11 px text over the chart's width). */
const NOTE_CHARS = 96;
const NOTE_LINE = 15;

/** Splits `text` into lines of at most `max` characters at spaces. */
export function wrapText(text: string, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > max) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * Ability θ against accuracy, one point per LLM (±SE whiskers). The LLMs whose
 * θ rank and accuracy rank differ most are drawn in a second colour with a
 * numbered marker, and each number's sentence under the plot says why.
 */
export function thetaAccuracyChart(
  data: ThetaAccuracyData,
  opts: ChartOptions = {},
): SVGSVGElement {
  const noteLines = data.notes.map((n) => wrapText(`${n.marker}. ${n.text}`, NOTE_CHARS));
  const notesHeight = noteLines.reduce((s, l) => s + l.length * NOTE_LINE + 4, 0);
  const plotHeight = 300;
  const f = createFrame(opts, {
    width: 640,
    height: 20 + 16 + plotHeight + 44 + notesHeight + 8,
    title: 'Ability θ against accuracy',
    margin: { top: 36, right: 24, bottom: 44 + notesHeight + 8, left: 52 },
  });
  const { x, y } = scatterScales(
    f,
    data.points.map((p) => p.accuracy),
    data.points.flatMap((p) =>
      p.thetaSE === undefined ? [p.theta] : [p.theta - p.thetaSE, p.theta + p.thetaSE],
    ),
  );
  drawXYAxes(
    f,
    axisBottom(x)
      .ticks(6)
      .tickFormat((v) => `${Math.round(100 * Number(v))}%`),
    axisLeft(y).ticks(6),
    'Accuracy (share of items whose top option is the key)',
    'Ability θ',
    { xLabelY: 34 },
  );

  const base = seriesColor(0);
  const hot = seriesColor(2);
  const g = f.plot.append('g').attr('class', 'points');
  // Marked points last, so they are drawn on top.
  const order = [...data.points].sort((a, b) => (a.marker ?? 0) - (b.marker ?? 0));
  for (const p of order) {
    if (!Number.isFinite(p.accuracy) || !Number.isFinite(p.theta)) continue;
    // A marked point's number goes on the side with more room.
    drawPoint(g, p, x(p.accuracy), y, p.marker ? hot : base, x(p.accuracy) > f.innerWidth * 0.7);
  }

  drawLegend(
    f.plot,
    [
      {
        label: `${data.model}${data.rho === undefined ? '' : ` (Spearman ρ = ${fmt(data.rho)})`}`,
        color: base,
        shape: 'dot' as const,
      },
      ...(data.notes.length
        ? [{ label: 'θ and accuracy rank it apart most', color: hot, shape: 'dot' as const }]
        : []),
    ],
    0,
    -22,
    { maxChars: 44, horizontal: true },
  );

  drawNotes(f, data.notes, noteLines);
  return f.svg.node()!;
}

/**
 * One LLM's point at x = `cx`: its ±SE whisker, a dot, a tooltip with its
 * ranks, and a marked LLM's number beside it (on the left when `left`).
 */
function drawPoint(
  g: G,
  p: ThetaAccuracyPoint,
  cx: number,
  y: ScaleLinear<number, number>,
  color: string,
  left: boolean,
) {
  const pt = g
    .append('g')
    .attr('class', p.marker ? 'point marked' : 'point')
    .attr('data-llm', p.label);
  if (p.thetaSE !== undefined && Number.isFinite(p.thetaSE))
    pt.append('line')
      .attr('class', 'se')
      .attr('x1', cx)
      .attr('x2', cx)
      .attr('y1', y(p.theta - p.thetaSE))
      .attr('y2', y(p.theta + p.thetaSE))
      .attr('stroke', color)
      .attr('stroke-opacity', 0.5);
  pt.append('circle')
    .attr('cx', cx)
    .attr('cy', y(p.theta))
    .attr('r', p.marker ? 5 : 3.5)
    .attr('fill', color)
    .attr('stroke', '#fff');
  const ranks =
    p.rankTheta !== undefined && p.rankAccuracy !== undefined
      ? `; rank ${fmt(p.rankTheta, 1).replace('.0', '')} by θ, ${fmt(p.rankAccuracy, 1).replace('.0', '')} by accuracy`
      : '';
  pt.append('title').text(
    `${p.label}: accuracy ${fmt(100 * p.accuracy, 1)}%, θ ${fmt(p.theta)}` +
      `${p.thetaSE === undefined ? '' : ` ± ${fmt(p.thetaSE)}`}${ranks}`,
  );
  if (p.marker)
    pt.append('text')
      .attr('class', 'marker-label')
      .attr('x', cx + (left ? -8 : 8))
      .attr('y', y(p.theta))
      .attr('dy', '0.32em')
      .attr('text-anchor', left ? 'end' : 'start')
      .attr('font-weight', 600)
      .attr('fill', color)
      .text(String(p.marker));
}

/** The marked LLMs' sentences under the plot, each wrapped into `noteLines`' lines. */
function drawNotes(f: Frame, notes: ThetaAccuracyData['notes'], noteLines: string[][]) {
  const g = f.plot
    .append('g')
    .attr('class', 'notes')
    .attr('transform', `translate(${-f.margin.left + 8},${f.innerHeight + 56})`);
  let dy = 0;
  noteLines.forEach((lines, k) => {
    const t = g
      .append('text')
      .attr('class', 'note')
      .attr('data-marker', notes[k].marker)
      .attr('y', dy)
      .attr('fill', 'currentColor');
    lines.forEach((line, q) =>
      t
        .append('tspan')
        .attr('x', 0)
        .attr('dy', q === 0 ? 0 : NOTE_LINE)
        .text(line),
    );
    dy += lines.length * NOTE_LINE + 4;
  });
}
