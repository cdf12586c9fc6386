// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { standardError, testInfoChart } from './testInfo';
import { count, roundedSvg } from './testing';

describe('standardError', () => {
  it('is 1/√I, infinite where information vanishes', () => {
    expect(standardError([4, 100, 0, -1, NaN])).toEqual([0.5, 0.1, Infinity, Infinity, Infinity]);
  });
});

describe('testInfoChart', () => {
  const data = { theta: [-4, -2, 0, 2, 4], info: [0.5, 4, 16, 9, 1] };
  const svg = testInfoChart(data, { document });

  it('draws the information curve and the SE curve on a right axis', () => {
    expect(count(svg, 'path[data-series="info"]')).toBe(1);
    expect(count(svg, 'path[data-series="se"]')).toBe(1);
    expect(svg.querySelector('path.info title')?.textContent).toBe(
      'Test information, peak 16.000 at θ = 0.00',
    );
    expect(svg.querySelector('path.se title')?.textContent).toBe(
      'Standard error of θ, minimum 0.250',
    );
  });

  it('leaves out SE beyond the capped axis (here 1/√0.5 > 5 × 0.25)', () => {
    // 4 of 5 grid points are drawn: the segment starts at θ = −2.
    const d = svg.querySelector('path.se')!.getAttribute('d')!;
    expect(d.match(/[ML]/g)).toHaveLength(4);
  });

  it('matches the snapshot', () => {
    expect(roundedSvg(svg)).toMatchSnapshot();
  });
});
