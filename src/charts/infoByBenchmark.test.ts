// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { infoGainPct } from '../core/fit/info';
import { formatGain, infoByBenchmarkChart } from './infoByBenchmark';
import { count, roundedSvg } from './testing';

const data = [
  { benchmark: 'ARC-Challenge', infoBinary: 0.2, infoWrong: 0.202 },
  { benchmark: 'MMLU-Pro', infoBinary: 0.1, infoWrong: 0.25 },
  { benchmark: 'GPQA', infoBinary: 0.05, infoWrong: 0.01 },
].map((r) => ({ ...r, gainPct: infoGainPct(r.infoBinary, r.infoWrong) }));

describe('infoGainPct', () => {
  it('is wrong/binary·100, undefined without binary information', () => {
    expect(data[0].gainPct).toBeCloseTo(101, 9);
    expect(data[1].gainPct).toBeCloseTo(250, 9);
    expect(data[2].gainPct).toBeCloseTo(20, 9);
    expect(infoGainPct(0, 1)).toBeNaN();
  });

  it('formats gains with a sign', () => {
    expect(formatGain(101)).toBe('+101%');
    expect(formatGain(100.6)).toBe('+101%');
    expect(formatGain(-4.2)).toBe('−4%');
    expect(formatGain(NaN)).toBe('—');
  });
});

describe('infoByBenchmarkChart', () => {
  const svg = infoByBenchmarkChart(data, { document });

  it('draws one stacked bar per benchmark with its gain label', () => {
    expect(count(svg, 'g.benchmark')).toBe(3);
    expect(count(svg, 'rect[data-layer="binary"]')).toBe(3);
    expect(count(svg, 'rect[data-layer="wrong"]')).toBe(3);
    const labels = [...svg.querySelectorAll('text.gain')].map((t) => t.textContent);
    expect(labels).toEqual(['+101%', '+250%', '+20%']);
  });

  it('stacks distractor information after the binary segment', () => {
    const row = svg.querySelector('g[data-benchmark="MMLU-Pro"]')!;
    const b = row.querySelector('rect[data-layer="binary"]')!;
    const w = row.querySelector('rect[data-layer="wrong"]')!;
    const end = Number(b.getAttribute('x')) + Number(b.getAttribute('width'));
    expect(Number(w.getAttribute('x'))).toBeCloseTo(end, 9);
    expect(Number(w.getAttribute('width'))).toBeCloseTo(2.5 * Number(b.getAttribute('width')), 9);
  });

  it('matches the snapshot', () => {
    expect(roundedSvg(svg)).toMatchSnapshot();
  });
});
