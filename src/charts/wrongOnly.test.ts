// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { count, roundedSvg } from './testing';
import { wrongOnlyChart } from './wrongOnly';

const data = [
  {
    scenario: 'Correctness only',
    spearman: { mean: 0.943, sd: 0.1 },
    pearson: { mean: 0.98, sd: 0.008 },
  },
  {
    scenario: 'Wrong answers only',
    spearman: { mean: 0.714, sd: 0.297 },
    pearson: { mean: -0.1, sd: 0.171 },
  },
];

describe('wrongOnlyChart', () => {
  const svg = wrongOnlyChart(data, { document });

  it('draws a Spearman and a Pearson bar per scenario with values', () => {
    expect(count(svg, 'g.wrong-bar')).toBe(4);
    expect(count(svg, 'g.wrong-bar .whisker')).toBe(4);
    const g = svg.querySelector(
      'g.wrong-bar[data-scenario="Wrong answers only"][data-metric="spearman"]',
    );
    expect(g?.querySelector('title')?.textContent).toBe(
      'Wrong answers only: Spearman 0.714 ± 0.297',
    );
    expect(g?.querySelector('text.value')?.textContent).toBe('0.71');
  });

  it('draws negative correlations left of zero', () => {
    const zero = Number(svg.querySelector('line.zero')!.getAttribute('x1'));
    const bar = svg.querySelector(
      'g.wrong-bar[data-metric="pearson"][data-scenario="Wrong answers only"] rect',
    )!;
    expect(Number(bar.getAttribute('x')) + Number(bar.getAttribute('width'))).toBeCloseTo(zero, 9);
  });

  it('matches the snapshot', () => {
    expect(roundedSvg(svg)).toMatchSnapshot();
  });
});
