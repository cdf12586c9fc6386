// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { calibrationChart, type CalibrationData } from './calibration';
import { count, roundedSvg } from './testing';

const data: CalibrationData = {
  series: [
    {
      model: 'llmnrm',
      points: [
        { n: 5, label: '5', mean: 0.29, sd: 0.07 },
        { n: 13, label: 'all (13)', mean: 0.24, sd: 0.04 },
      ],
    },
    {
      model: '2pl',
      points: [
        { n: 5, label: '5', mean: 0.87, sd: 0.14 },
        { n: 13, label: 'all (13)', mean: 0.66, sd: 0.01 },
      ],
    },
  ],
};

describe('calibrationChart', () => {
  const svg = calibrationChart(data, { document });

  it('draws a band, a line and points per model, with n labels on the axis', () => {
    expect(count(svg, 'g.series path.band')).toBe(2);
    expect(count(svg, 'g.series path.line')).toBe(2);
    expect(count(svg, 'circle.point')).toBe(4);
    expect(svg.querySelector('g[data-model="2pl"] circle[data-n="13"] title')?.textContent).toBe(
      '2pl, n = all (13): 0.660 ± 0.010',
    );
    const ticks = [...svg.querySelectorAll('.tick text')].map((t) => t.textContent);
    expect(ticks).toContain('all (13)');
  });

  it('puts the lower log-loss lower on the plot', () => {
    const cy = (m: string) =>
      Number(svg.querySelector(`g[data-model="${m}"] circle[data-n="13"]`)!.getAttribute('cy'));
    expect(cy('llmnrm')).toBeGreaterThan(cy('2pl'));
  });

  it('matches the snapshot', () => {
    expect(roundedSvg(svg)).toMatchSnapshot();
  });
});
