// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { rankByTheta, thetaRankingChart } from './thetaRanking';
import { sharpnessChart, sortBySharpness } from './sharpness';
import { count, roundedSvg } from './testing';

const llms = [
  { id: 'small-7b', theta: -0.8, se: 0.12, accuracy: 0.41 },
  { id: 'frontier', theta: 1.9, se: 0.2, accuracy: 0.88 },
  { id: 'mid-70b', theta: 0.6, se: 0.1, accuracy: 0.67 },
  { id: 'broken', theta: NaN, se: NaN, accuracy: 0.25 },
];

describe('rankByTheta', () => {
  it('sorts by θ descending with non-finite θ last, without mutating input', () => {
    expect(rankByTheta(llms).map((r) => r.id)).toEqual([
      'frontier',
      'mid-70b',
      'small-7b',
      'broken',
    ]);
    expect(llms[0].id).toBe('small-7b');
  });
});

describe('thetaRankingChart', () => {
  const svg = thetaRankingChart(llms, { document });

  it('has one focusable, labelled row per LLM in rank order', () => {
    const rows = [...svg.querySelectorAll('g.llm-row')];
    expect(rows.map((r) => r.getAttribute('data-llm'))).toEqual([
      'frontier',
      'mid-70b',
      'small-7b',
      'broken',
    ]);
    expect(rows.every((r) => r.getAttribute('tabindex') === '0')).toBe(true);
    expect(rows[1].getAttribute('aria-label')).toBe('2. mid-70b: θ = 0.60 ± 0.10, accuracy 67.0%');
  });

  it('draws whiskers and θ dots for finite θ and an accuracy dot for every LLM', () => {
    expect(count(svg, 'line.whisker')).toBe(3);
    expect(count(svg, 'circle.theta')).toBe(3);
    expect(count(svg, 'circle.accuracy')).toBe(4);
  });

  it('sizes its height to the number of rows', () => {
    expect(svg.getAttribute('height')).toBe(String(40 + 16 + 4 * 16));
  });

  it('matches the snapshot', () => {
    expect(roundedSvg(svg)).toMatchSnapshot();
  });
});

describe('sharpnessChart', () => {
  const data = [
    { id: 'flat', s: 0.5 },
    { id: 'sharp', s: 3.2 },
    { id: 'neutral', s: 1 },
    { id: 'invalid', s: 0 },
  ];
  const svg = sharpnessChart(data, { document });

  it('sorts valid rows sharpest first', () => {
    expect(sortBySharpness(data).map((r) => r.id)).toEqual(['sharp', 'neutral', 'flat']);
  });

  it('draws one dot per valid LLM and the s = 1 reference', () => {
    expect(count(svg, 'g[data-llm] circle')).toBe(3);
    expect(count(svg, 'line.reference')).toBe(1);
    const ref = Number(svg.querySelector('line.reference')!.getAttribute('x1'));
    const neutral = Number(svg.querySelector('g[data-llm="neutral"] circle')!.getAttribute('cx'));
    expect(neutral).toBeCloseTo(ref, 9);
  });

  it('draws s ± SE when the fit has SEs, inside the axis', () => {
    const withSE = sharpnessChart(
      [
        { id: 'a', s: 2, se: 0.5 },
        { id: 'b', s: 0.5, se: 0.1 },
        { id: 'c', s: 1 },
      ],
      { document },
    );
    expect(count(withSE, 'line.se')).toBe(2);
    expect(withSE.querySelector('g[data-llm="a"] title')?.textContent).toBe('a: s = 2.000 ± 0.500');
    const width = Number(withSE.getAttribute('width'));
    for (const l of withSE.querySelectorAll('line.se'))
      for (const end of ['x1', 'x2']) {
        const v = Number(l.getAttribute(end));
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThanOrEqual(width);
      }
  });

  it('matches the snapshot', () => {
    expect(roundedSvg(svg)).toMatchSnapshot();
  });
});
