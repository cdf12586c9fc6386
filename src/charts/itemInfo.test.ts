// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { itemInfoChart, stackItemInfo } from './itemInfo';
import { counts, roundedSvg } from './testing';

const data = {
  theta: [-2, -1, 0, 1, 2],
  binary: [0.1, 0.3, 0.5, 0.3, 0.1],
  wrong: [0.2, 0.25, 0.1, 0.05, 0],
};

describe('stackItemInfo', () => {
  it('puts binary at the bottom and distractor information on top', () => {
    const s = stackItemInfo(data);
    expect(s).toHaveLength(5);
    expect(s[1].binary).toEqual([0, 0.3]);
    expect(s[1].wrong[0]).toBe(0.3);
    expect(s[1].wrong[1]).toBeCloseTo(0.55, 12);
    expect(s[1].total).toBeCloseTo(0.55, 12);
    expect(s[4].total).toBeCloseTo(0.1, 12);
  });
});

describe('itemInfoChart', () => {
  const svg = itemInfoChart(data, { document });

  it('draws two stacked layers and a total line', () => {
    const layers = ['path.layer', 'path[data-layer="binary"]', 'path[data-layer="wrong"]'];
    expect(counts(svg, [...layers, 'path.total'])).toEqual({
      'path.layer': 2,
      'path[data-layer="binary"]': 1,
      'path[data-layer="wrong"]': 1,
      'path.total': 1,
    });
    expect(svg.querySelector('path.total title')?.textContent).toBe(
      'Total information, peak 0.600 at θ = 0.00',
    );
  });

  it('matches the snapshot', () => {
    expect(roundedSvg(svg)).toMatchSnapshot();
  });
});
