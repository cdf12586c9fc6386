// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { bandsChart, clipBands } from './bands';
import { count, roundedSvg } from './testing';

const data = {
  bands: [
    { option: 1, from: -0.4, to: 6 },
    { option: 0, from: -5, to: -1.2 },
    { option: 2, from: -1.2, to: -0.4 },
  ],
  labels: ['Mars', 'the Sun', 'Saturn'],
  key: 1,
};

describe('clipBands', () => {
  it('clips to [−4, 4], sorts, and drops empty bands', () => {
    expect(clipBands([...data.bands, { option: 3, from: 5, to: 7 }])).toEqual([
      { option: 0, from: -4, to: -1.2 },
      { option: 2, from: -1.2, to: -0.4 },
      { option: 1, from: -0.4, to: 4 },
    ]);
  });
});

describe('bandsChart', () => {
  const svg = bandsChart(data, { document });

  it('draws one coloured band per range, labelling the key', () => {
    expect(count(svg, 'g.band rect')).toBe(3);
    expect(svg.querySelector('g.band[data-option="1"] title')?.textContent).toBe(
      'the Sun (key): θ ∈ [−0.40, 4.00]',
    );
    expect(svg.querySelector('g.band[data-option="1"] text')?.textContent).toBe('B (key)');
    expect(count(svg, '.legend-item')).toBe(3);
  });

  it('matches the snapshot', () => {
    expect(roundedSvg(svg)).toMatchSnapshot();
  });
});
