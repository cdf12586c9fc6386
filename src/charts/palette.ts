import { lab, schemeTableau10 } from 'd3';
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

/** "B: Saturn" for option texts; just "B" when the label already is the letter. */
export function codedLabel(labels: string[], k: number, key: number): string {
  const letter = optionLetter(k);
  const text = optionLabel(labels, k, key);
  return labels[k] === undefined || labels[k] === letter ? text : `${letter}: ${text}`;
}

/** Text colour readable on a filled mark of colour `fill`. */
export function textOn(fill: string): string {
  return lab(fill).l > 55 ? '#222' : '#fff';
}

export interface LegendItem {
  label: string;
  color: string;
  /** Drawn with a thicker swatch (the key option). */
  emphasis?: boolean;
  /** 'line' swatch for curves, 'rect' for areas/bars, 'dot' for points, 'triangle' for off-axis markers. */
  shape?: 'line' | 'rect' | 'dot' | 'triangle';
}

/**
 * Legend starting at (x, y), vertical unless `horizontal`; labels are
 * truncated with the full text in `<title>`.
 */
export function drawLegend(
  parent: Parent,
  items: LegendItem[],
  x: number,
  y: number,
  { maxChars = 22, horizontal = false } = {},
) {
  let offset = 0;
  const g = parent.append('g').attr('class', 'legend').attr('transform', `translate(${x},${y})`);
  items.forEach((item, i) => {
    const row = g
      .append('g')
      .attr('class', 'legend-item')
      .attr('transform', horizontal ? `translate(${offset},0)` : `translate(0,${i * 16})`);
    offset += 34 + Math.min(item.label.length, maxChars) * 6.2;
    row.append('title').text(item.label);
    if (item.shape === 'dot') {
      row.append('circle').attr('cx', 7).attr('r', 3).attr('fill', item.color);
    } else if (item.shape === 'triangle') {
      row.append('path').attr('d', 'M3,4L11,0L3,-4Z').attr('fill', item.color);
    } else if (item.shape === 'rect') {
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
