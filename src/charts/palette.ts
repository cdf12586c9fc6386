import { schemeTableau10 } from 'd3';
import { type Parent, MUTED, truncate } from './frame';

/** Colour for option k; Tableau 10 is distinguishable under common colour-vision deficiencies. */
export function optionColor(k: number): string {
  return schemeTableau10[k % schemeTableau10.length];
}

/** Letter code for option k (A, B, …). */
export function optionLetter(k: number): string {
  return k < 26 ? String.fromCharCode(65 + k) : `#${k + 1}`;
}

/** Option label, with "(key)" appended for the correct option. */
export function optionLabel(labels: string[], k: number, key: number): string {
  const base = labels[k] ?? optionLetter(k);
  return k === key ? `${base} (key)` : base;
}

export interface LegendItem {
  label: string;
  color: string;
  /** Drawn with a thicker swatch (the key option). */
  emphasis?: boolean;
  /** 'line' swatch for curves, 'rect' for areas/bars. */
  shape?: 'line' | 'rect';
}

/** Vertical legend starting at (x, y); labels are truncated with the full text in `<title>`. */
export function drawLegend(
  parent: Parent,
  items: LegendItem[],
  x: number,
  y: number,
  maxChars = 22,
) {
  const g = parent.append('g').attr('class', 'legend').attr('transform', `translate(${x},${y})`);
  items.forEach((item, i) => {
    const row = g
      .append('g')
      .attr('class', 'legend-item')
      .attr('transform', `translate(0,${i * 16})`);
    row.append('title').text(item.label);
    if (item.shape === 'rect') {
      row
        .append('rect')
        .attr('width', 12)
        .attr('height', 10)
        .attr('y', -5)
        .attr('fill', item.color);
    } else {
      row
        .append('line')
        .attr('x2', 14)
        .attr('stroke', item.color)
        .attr('stroke-width', item.emphasis ? 3.5 : 1.75);
    }
    row
      .append('text')
      .attr('x', 18)
      .attr('dy', '0.32em')
      .attr('fill', item.emphasis ? 'currentColor' : MUTED)
      .attr('font-weight', item.emphasis ? 'bold' : null)
      .text(truncate(item.label, maxChars));
  });
  return g;
}
