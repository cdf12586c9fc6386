// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { budgetsOf, compressionChart, type CompressionData } from './compression';
import { count, roundedSvg } from './testing';

const data: CompressionData = {
  target: 0.85,
  series: [
    {
      model: 'llmnrm',
      smallestK: 20,
      points: [
        { k: 5, tau: 0.7, sd: 0.1 },
        { k: 20, tau: 0.9, sd: 0.05 },
        { k: 41, tau: 0.95, sd: 0 },
      ],
    },
    {
      model: '2pl',
      smallestK: null,
      points: [
        { k: 5, tau: 0.6, sd: 0.12 },
        { k: 20, tau: 0.8, sd: 0.04 },
        { k: 41, tau: 0.84, sd: 0.02 },
      ],
    },
  ],
};

describe('compressionChart', () => {
  const svg = compressionChart(data, { document });

  it('lists the budgets once, ascending', () => {
    expect(budgetsOf(data)).toEqual([5, 20, 41]);
  });

  it('draws a line per model, points with whiskers, the target and the smallest k', () => {
    expect(count(svg, 'g.series path.line')).toBe(2);
    expect(count(svg, 'circle.point')).toBe(6);
    expect(count(svg, '.whisker')).toBe(5);
    expect(count(svg, 'circle.smallest')).toBe(1);
    expect(svg.querySelector('circle.smallest title')?.textContent).toBe(
      'llmnrm: 20 items reach τ ≥ 0.85',
    );
    expect(svg.querySelector('.target text')?.textContent).toBe('τ = 0.85');
    const legend = [...svg.querySelectorAll('.legend-item text')].map((t) => t.textContent);
    expect(legend).toEqual(['llmnrm (smallest k: 20)', '2pl (smallest k: none)']);
  });

  it('spaces budgets on a log axis', () => {
    const cx = (k: number) =>
      Number(svg.querySelector(`g[data-model="llmnrm"] circle[data-k="${k}"]`)!.getAttribute('cx'));
    expect((cx(20) - cx(5)) / (cx(41) - cx(5))).toBeCloseTo(Math.log(4) / Math.log(41 / 5), 9);
  });

  it('matches the snapshot', () => {
    expect(roundedSvg(svg)).toMatchSnapshot();
  });
});
