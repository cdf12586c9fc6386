/**
 * Information per benchmark: for each benchmark two bars, binary correctness
 * (solid) and what the wrong answer adds (hatched), each labelled with its value.
 */
import { esc, fmt } from '../html';
import { linear, px, svgRoot, xAxis } from './frame';

export interface InfoBar {
  benchmark: string;
  binary: number;
  wrong: number;
}

export function infoBarsChart(rows: InfoBar[], width = 560): string {
  const L = 150;
  const R = 60;
  const T = 24;
  const G = 34;
  const height = T + rows.length * G + 40;
  const max = Math.max(1e-9, ...rows.flatMap((r) => [r.binary, r.wrong]).filter(Number.isFinite));
  const x = linear(0, max * 1.05, L, width - R);
  const bars = rows.map((r, q) => {
    const y = T + q * G;
    const bar = (v: number, dy: number, cls: string, name: string) =>
      `<rect x="${L}" y="${px(y + dy)}" width="${px(Math.max(0, x(v) - L))}" height="12" class="${cls}"/><text x="${px(x(v) + 4)}" y="${px(y + dy + 10)}" class="end-label">${name} ${esc(fmt(v, 3))}</text>`;
    return `<text x="${L - 6}" y="${px(y + 15)}" text-anchor="end">${esc(clip(r.benchmark))}</text>${bar(r.binary, 2, 'bar', 'bin')}${bar(r.wrong, 16, 'bar hatched', 'wrong')}`;
  });
  const legend = `<rect x="${L}" y="4" width="12" height="10" class="bar"/><text x="${L + 16}" y="13">binary correctness (bin)</text><rect x="${L + 180}" y="4" width="12" height="10" class="bar hatched"/><text x="${L + 196}" y="13">wrong-answer identity (wrong)</text>`;
  const defs = `<defs><pattern id="hatch" width="5" height="5" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="5" height="5" class="hatch-bg"/><line x1="0" y1="0" x2="0" y2="5" class="hatch-line"/></pattern></defs>`;
  return svgRoot(
    width,
    height,
    'Item information per benchmark: binary versus wrong-answer',
    'For each benchmark, the mean item information from correctness alone (solid bar) and the information the identity of the wrong answer adds (hatched bar), with their values.',
    defs + legend + bars.join('') + xAxis(x, T + rows.length * G + 2, 'mean item information'),
  );
}

function clip(s: string): string {
  return s.length > 22 ? `${s.slice(0, 21)}…` : s;
}
