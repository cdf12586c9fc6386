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

  it('clamps SE beyond the capped axis to its top edge and marks it (here 1/√0.5 > 5 × 0.25)', () => {
    // All 5 grid points are drawn (one piece, no stray fragments); θ = −4 sits on the top edge.
    const d = svg.querySelector('path.se')!.getAttribute('d')!;
    expect(d.match(/[ML]/g)).toHaveLength(5);
    expect(d.match(/M/g)).toHaveLength(1);
    expect(svg.querySelector('.se-off-scale')?.textContent).toBe('↑ SE above the axis');
  });

  it('the SE axis contains the SE line over the θ range of the LLMs', () => {
    const withLlms = testInfoChart({ ...data, llmTheta: [-4.2, 1] }, { document });
    // SE at θ = −4 is 1/√0.5 ≈ 1.414: the right axis must reach it; no off-scale marker.
    const ticks = [...withLlms.querySelectorAll('g.tick text')].map((t) => Number(t.textContent));
    expect(Math.max(...ticks.filter(Number.isFinite))).toBeGreaterThanOrEqual(1.4);
    expect(withLlms.querySelector('.se-off-scale')).toBeNull();
    expect(withLlms.querySelector('rect.llm-range title')?.textContent).toContain('θ range');
  });

  it('matches the snapshot', () => {
    expect(roundedSvg(svg)).toMatchSnapshot();
  });
});
