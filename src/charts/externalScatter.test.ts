// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { labelWidth } from './frame';
import { box, externalScatterChart, placeLabels } from './externalScatter';
import { count, roundedSvg } from './testing';

const data = {
  xLabel: 'Arena score',
  series: [
    {
      name: 'llmnrm',
      rho: 0.833,
      points: [
        { label: 'Llama-3.1-70B', x: 1294, y: 1.2 },
        { label: 'Llama-3.2-1B', x: 1061, y: -1.8 },
        { label: 'Qwen2.5-72B', x: 1303, y: 1.5 },
      ],
    },
    {
      name: '2pl',
      points: [
        { label: 'Llama-3.1-70B', x: 1294, y: 0.9 },
        { label: 'Llama-3.2-1B', x: 1061, y: NaN },
        { label: 'Qwen2.5-72B', x: 1303, y: 1.1 },
      ],
    },
  ],
};

describe('externalScatterChart', () => {
  const svg = externalScatterChart(data, { document });

  it('draws one point per finite pair, labels the first series, and puts ρ in the legend', () => {
    expect(count(svg, 'circle.point')).toBe(5);
    expect(count(svg, 'g.series[data-series="llmnrm"] circle.point')).toBe(3);
    expect(count(svg, 'text.point-label')).toBe(3);
    expect(svg.querySelector('circle[data-llm="Llama-3.2-1B"] title')?.textContent).toBe(
      'Llama-3.2-1B: Arena score 1061.0, θ (llmnrm) −1.80',
    );
    const legend = [...svg.querySelectorAll('.legend-item text')].map((t) => t.textContent);
    expect(legend).toEqual(['llmnrm (ρ = 0.83)', '2pl']);
  });

  it('puts higher scores to the right and higher θ up', () => {
    const c = (llm: string) =>
      svg.querySelector(`g.series[data-series="llmnrm"] [data-llm="${llm}"]`)!;
    const cx = (llm: string) => Number(c(llm).getAttribute('cx'));
    const cy = (llm: string) => Number(c(llm).getAttribute('cy'));
    expect(cx('Qwen2.5-72B')).toBeGreaterThan(cx('Llama-3.2-1B'));
    expect(cy('Qwen2.5-72B')).toBeLessThan(cy('Llama-3.2-1B'));
  });

  it('matches the snapshot', () => {
    expect(roundedSvg(svg)).toMatchSnapshot();
  });
});

describe('placeLabels', () => {
  it('labels crowded points without two labels meeting, and drops what fits nowhere', () => {
    const points = Array.from({ length: 12 }, (_, k) => ({
      x: 300 + (k % 3) * 4,
      y: 100 + k * 3,
      text: `Model-${k}-Instruct`,
    }));
    const placed = placeLabels(points, [], box(0, 0, 600, 300));
    expect(placed.length).toBeGreaterThan(1);
    expect(placed.length).toBeLessThan(points.length);
    const boxes = placed.map((l) => {
      const w = labelWidth(l.text, 12);
      const x0 = l.anchor === 'start' ? l.x : l.anchor === 'end' ? l.x - w : l.x - w / 2;
      return { x0, x1: x0 + w, y0: l.y - 7.2, y1: l.y + 7.2 };
    });
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i], boxes[j]];
        expect(a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1).toBe(false);
      }
  });
});
