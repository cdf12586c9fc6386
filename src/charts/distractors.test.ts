// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { countHistogram, distractorHistogramChart } from './distractorHistogram';
import { distractorsByBenchmarkChart } from './distractorsByBenchmark';
import { count, roundedSvg } from './testing';

describe('countHistogram', () => {
  it('counts items for every value 0..max, zeros included', () => {
    expect(countHistogram([0, 2, 2, 3, 0, 2, -1, 1.5])).toEqual([
      { value: 0, items: 2 },
      { value: 1, items: 0 },
      { value: 2, items: 3 },
      { value: 3, items: 1 },
    ]);
    expect(countHistogram([])).toEqual([{ value: 0, items: 0 }]);
  });
});

describe('distractorHistogramChart', () => {
  const svg = distractorHistogramChart({ counts: [0, 2, 2, 3, 0, 2] }, { document });

  it('draws a bar per count value with item totals', () => {
    expect(count(svg, 'g[data-count] rect')).toBe(4);
    expect(svg.querySelector('g[data-count="2"] text')?.textContent).toBe('3');
    expect(svg.querySelector('g[data-count="1"] title')?.textContent).toBe(
      '1 informative distractor: 0 items',
    );
  });

  it('matches the snapshot', () => {
    expect(roundedSvg(svg)).toMatchSnapshot();
  });
});

describe('distractorsByBenchmarkChart', () => {
  const data = [
    { benchmark: 'ARC-Challenge', informativeDistractors: 0.62, items: 1172 },
    { benchmark: 'MMLU-Pro', informativeDistractors: 1.84, items: 12032 },
    { benchmark: 'GPQA-Diamond', informativeDistractors: 1.1, items: 198 },
  ];
  const svg = distractorsByBenchmarkChart(data, { document });

  it('draws one bar per benchmark and a reference at one distractor', () => {
    expect(count(svg, 'g.benchmark rect')).toBe(3);
    expect(count(svg, 'line.reference')).toBe(1);
    expect(svg.querySelector('g[data-benchmark="MMLU-Pro"] title')?.textContent).toBe(
      'MMLU-Pro: 1.84 informative distractors per item (12032 items)',
    );
  });

  it('scales bar lengths with the mean', () => {
    const w = (b: string) =>
      Number(svg.querySelector(`g[data-benchmark="${b}"] rect`)!.getAttribute('width'));
    expect(w('MMLU-Pro') / w('ARC-Challenge')).toBeCloseTo(1.84 / 0.62, 9);
  });

  it('matches the snapshot', () => {
    expect(roundedSvg(svg)).toMatchSnapshot();
  });
});
