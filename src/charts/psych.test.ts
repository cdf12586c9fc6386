// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { difEffectChart } from './difEffect';
import { itemFitBubbleChart } from './itemFitBubble';
import { count, roundedSvg } from './testing';

describe('itemFitBubbleChart', () => {
  const svg = itemFitBubbleChart(
    {
      points: [
        { id: 'i1', infit: 0.95, outfit: 1.02, n: 18, flagged: false },
        { id: 'i2', infit: 1.4, outfit: 1.9, n: 18, flagged: true },
        { id: 'i3', infit: NaN, outfit: 1, n: 0, flagged: false },
      ],
      lower: 0.7,
      upper: 1.3,
    },
    { document },
  );
  it('draws one bubble per finite item, flagged ones marked', () => {
    expect(count(svg, 'circle[data-item]')).toBe(2);
    expect(svg.querySelector('circle[data-item="i2"]')?.getAttribute('data-flagged')).toBe('true');
    expect(svg.querySelector('circle[data-item="i2"] title')?.textContent).toBe(
      'i2: infit 1.400, outfit 1.900, n 18',
    );
    expect(count(svg, '.guides line')).toBe(6);
  });
  it('matches its snapshot', () => expect(roundedSvg(svg)).toMatchSnapshot());
});

describe('difEffectChart', () => {
  const svg = difEffectChart(
    {
      rows: [
        { id: 'a', effect: -2.1, lo: -3, hi: -1.2, flagged: true },
        { id: 'b', effect: 0.3, lo: -0.5, hi: 1.1, flagged: false },
        { id: 'c', effect: NaN, lo: NaN, hi: NaN, flagged: false },
      ],
      label: 'Δ_MH',
      guides: [1, 1.5],
    },
    { document },
  );
  it('draws a row per item and an interval per finite effect', () => {
    expect(count(svg, 'g[data-item]')).toBe(3);
    expect(count(svg, 'line.interval')).toBe(2);
    expect(svg.querySelector('g[data-item="a"]')?.getAttribute('data-flagged')).toBe('true');
    expect(svg.querySelector('g[data-item="a"] title')?.textContent).toBe(
      'a: −2.10 [−3.00, −1.20]',
    );
  });
  it('matches its snapshot', () => expect(roundedSvg(svg)).toMatchSnapshot());
});
