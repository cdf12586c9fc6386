// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { binValues, infoDistributionChart } from './infoDistribution';
import { count, roundedSvg } from './testing';

const values = [0.05, 0.12, 0.14, 0.21, 0.22, 0.23, 0.38, NaN, Infinity];

describe('binValues', () => {
  it('bins finite values into nice intervals', () => {
    const bins = binValues(values, 4);
    expect(bins.map((b) => [b.x0, b.x1, b.count])).toEqual([
      [0, 0.1, 1],
      [0.1, 0.2, 2],
      [0.2, 0.3, 3],
      [0.3, 0.4, 1],
    ]);
    expect(bins.reduce((s, b) => s + b.count, 0)).toBe(7);
  });

  it('returns no bins for no finite values', () => {
    expect(binValues([NaN])).toEqual([]);
  });
});

describe('infoDistributionChart', () => {
  const svg = infoDistributionChart(
    { values, label: 'I(θ) averaged' },
    { document, thresholds: 4 },
  );

  it('draws one bar per bin', () => {
    expect(count(svg, 'rect[data-bin]')).toBe(4);
    expect(svg.querySelector('rect[data-bin="2"] title')?.textContent).toBe(
      '0.200 – 0.300: 3 items',
    );
    expect(svg.querySelector('.axis-label')?.textContent).toBe('I(θ) averaged');
  });

  it('renders an empty data set without throwing', () => {
    expect(count(infoDistributionChart({ values: [] }), 'rect[data-bin]')).toBe(0);
  });

  it('matches the snapshot', () => {
    expect(roundedSvg(svg)).toMatchSnapshot();
  });
});
