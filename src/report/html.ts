/**
 * The report's HTML pieces as strings: escaping, stable number formatting,
 * tables with header cells, figures. No DOM: the same code runs in Node and
 * in the worker, so both give the same bytes.
 */

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe inside an element or a quoted attribute. */
export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** x with `d` decimals; '—' for NaN or ±Infinity; never '-0.00'. */
export function fmt(x: number, d = 2): string {
  if (!Number.isFinite(x)) return '—';
  const s = x.toFixed(d);
  return /^-0(\.0*)?$/.test(s) ? s.slice(1) : s;
}

/** A share as a percentage with `d` decimals ('—' when not finite). */
export function pct(x: number, d = 1): string {
  return Number.isFinite(x) ? `${fmt(100 * x, d)}%` : '—';
}

/** An integer with comma thousands (12,345), the same in every locale. */
export function int(n: number): string {
  if (!Number.isFinite(n)) return '—';
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** n with the right form of `noun` ('1 item', '3 items'). */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${int(n)} ${n === 1 ? noun : plural}`;
}

/** A cell: its HTML (already escaped) and whether it is numeric (right-aligned). */
export interface Cell {
  html: string;
  num?: boolean;
}

/** A numeric cell. */
export const numCell = (s: string): Cell => ({ html: esc(s), num: true });
/** A text cell. */
export const textCell = (s: string): Cell => ({ html: esc(s) });

/**
 * A table with a caption and a header row of <th scope="col">; the first cell
 * of each row is a row header. Rows beyond `cap` are left out and counted in
 * a last line.
 */
export function table(
  caption: string,
  head: string[],
  rows: Cell[][],
  opts: { cap?: number; className?: string } = {},
): string {
  const cap = opts.cap ?? Infinity;
  const shown = rows.slice(0, cap);
  const th = head.map((h) => `<th scope="col">${esc(h)}</th>`).join('');
  const body = shown
    .map((r) => {
      const cells = r.map((c, k) => {
        const cls = c.num ? ' class="num"' : '';
        return k === 0 ? `<th scope="row"${cls}>${c.html}</th>` : `<td${cls}>${c.html}</td>`;
      });
      return `<tr>${cells.join('')}</tr>`;
    })
    .join('\n');
  const more =
    rows.length > shown.length
      ? `\n<p class="more">${int(rows.length - shown.length)} more rows of ${int(rows.length)} not shown.</p>`
      : '';
  const cls = opts.className ? ` class="${opts.className}"` : '';
  return `<table${cls}><caption>${esc(caption)}</caption>\n<thead><tr>${th}</tr></thead>\n<tbody>\n${body}\n</tbody></table>${more}`;
}

/** A figure: the chart's SVG and a caption. */
export function figure(svg: string, caption: string): string {
  return `<figure>${svg}<figcaption>${esc(caption)}</figcaption></figure>`;
}

/** A paragraph of plain text. */
export function para(text: string, cls = ''): string {
  return `<p${cls ? ` class="${cls}"` : ''}>${esc(text)}</p>`;
}

/** A numbered section: its h2, its reading and its body. */
export function section(id: string, title: string, reading: string, body: string): string {
  return `<section id="${id}" aria-labelledby="${id}-h">\n<h2 id="${id}-h">${esc(title)}</h2>\n${para(reading, 'reading')}\n${body}\n</section>`;
}

/** A definition list of symbols and what they mean. */
export function glossary(entries: [string, string][]): string {
  const rows = entries.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join('');
  return `<dl class="symbols">${rows}</dl>`;
}
