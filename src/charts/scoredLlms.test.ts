// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { mergeByTheta, scoredLlmsChart } from './scoredLlms';
import { count, roundedSvg } from './testing';

const data = {
  scored: [
    { id: 'new-big', theta: 1.2, se: 0.2 },
    { id: 'new-small', theta: -0.4, se: 0.15 },
  ],
  calibration: [
    { id: 'cal-a', theta: 1.5, se: 0.1 },
    { id: 'cal-b', theta: 0.1, se: 0.1 },
    { id: 'cal-c', theta: -1.6, se: 0.12 },
    { id: 'cal-tie', theta: -0.4, se: 0.1 },
  ],
};

describe('mergeByTheta', () => {
  it('ranks both groups together by θ, new LLMs first on ties', () => {
    expect(mergeByTheta(data).map((r) => `${r.group}:${r.id}`)).toEqual([
      'calibration:cal-a',
      'new:new-big',
      'calibration:cal-b',
      'new:new-small',
      'calibration:cal-tie',
      'calibration:cal-c',
    ]);
  });
});

describe('scoredLlmsChart', () => {
  const svg = scoredLlmsChart(data, { document });

  it('has one row per LLM, tagged with its group', () => {
    expect(count(svg, '.llm-row[data-group="new"]')).toBe(2);
    expect(count(svg, '.llm-row[data-group="calibration"]')).toBe(4);
    expect(count(svg, 'line.whisker')).toBe(6);
  });

  it('puts every LLM on one θ scale', () => {
    const cx = (id: string) =>
      Number(svg.querySelector(`[data-llm="${id}"] circle.theta`)!.getAttribute('cx'));
    expect(cx('new-small')).toBeCloseTo(cx('cal-tie'), 9);
    expect(cx('cal-c')).toBeLessThan(cx('new-small'));
    expect(cx('new-big')).toBeLessThan(cx('cal-a'));
  });

  it('labels rows with rank, group, θ and SE', () => {
    const title = svg.querySelector('[data-llm="new-big"] > title')!.textContent;
    expect(title).toBe('2. new-big (scored): θ = 1.20 ± 0.20');
  });

  it('matches the snapshot', () => {
    expect(roundedSvg(svg)).toMatchSnapshot();
  });
});
