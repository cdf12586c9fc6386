// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { budgetsOf, compressionChart, type CompressionData } from './compression';
import { counts, roundedSvg } from './testing';

/** A series from [k, τ, sd] triples. */
const series = (model: string, smallestK: number | null, pts: [number, number, number][]) => ({
  model,
  smallestK,
  points: pts.map(([k, tau, sd]) => ({ k, tau, sd })),
});

const data: CompressionData = {
  target: 0.85,
  series: [
    series('llmnrm', 20, [
      [5, 0.7, 0.1],
      [20, 0.9, 0.05],
      [41, 0.95, 0],
    ]),
    series('2pl', null, [
      [5, 0.6, 0.12],
      [20, 0.8, 0.04],
      [41, 0.84, 0.02],
    ]),
  ],
};

describe('compressionChart', () => {
  const svg = compressionChart(data, { document });

  it('lists the budgets once, ascending', () => {
    expect(budgetsOf(data)).toEqual([5, 20, 41]);
  });

  it('draws a line per model, points with whiskers, the target and the smallest k', () => {
    expect(
      counts(svg, ['g.series path.line', 'circle.point', '.whisker', 'circle.smallest']),
    ).toEqual({ 'g.series path.line': 2, 'circle.point': 6, '.whisker': 5, 'circle.smallest': 1 });
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
