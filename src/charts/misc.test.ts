// @vitest-environment jsdom
import { interpolateRdBu } from 'd3';
import { describe, expect, it } from 'vitest';
import { gateChart, gateCurve } from './gate';
import { heatmapChart, symmetricExtent } from './heatmap';
import { objectiveCurveChart, thinSeries } from './objectiveCurve';
import { count, roundedSvg } from './testing';

describe('heatmapChart', () => {
  const data = {
    rows: ['alpha', 'beta', 'gamma'],
    cols: ['A', 'B', 'C', 'D'],
    values: [
      [0.5, -0.2, -0.1, -0.2],
      [-1, 0.4, 0.3, 0.3],
      [0, 0, NaN, 0],
    ],
    title: 'Positional bias δ',
  };
  const svg = heatmapChart(data, { document });

  it('uses a symmetric extent', () => {
    expect(symmetricExtent(data.values)).toBe(1);
    expect(symmetricExtent([[0, NaN]])).toBe(1);
    expect(symmetricExtent([[0.2, -0.3]])).toBe(0.3);
  });

  it('titles the colour bar and both axes', () => {
    const titled = heatmapChart(
      { ...data, legendTitle: 'δ (logit shift)', rowTitle: 'LLM', colTitle: 'Option position' },
      { document },
    );
    expect(titled.querySelector('.color-legend .legend-title')?.textContent).toBe(
      'δ (logit shift)',
    );
    const axes = [...titled.querySelectorAll('.axis-label')].map((t) => t.textContent);
    expect(axes).toEqual(['Option position', 'LLM']);
  });

  it('draws rows × cols cells, diverging around white at 0', () => {
    expect(count(svg, 'rect.cell')).toBe(12);
    expect(svg.getAttribute('aria-label')).toBe('Positional bias δ');
    const cell = (r: string, c: string) =>
      svg.querySelector(`rect[data-row="${r}"][data-col="${c}"]`)!;
    expect(cell('beta', 'A').querySelector('title')?.textContent).toBe('beta × A: −1.000');
    expect(cell('gamma', 'C').querySelector('title')?.textContent).toBe('gamma × C: missing');
    expect(cell('gamma', 'A').getAttribute('fill')).toBe(interpolateRdBu(0.5));
    expect(cell('beta', 'A').getAttribute('fill')).not.toBe(
      cell('alpha', 'A').getAttribute('fill'),
    );
  });

  it('keeps tiny values neutral: the scale spans at least ±0.5 and a note gives their size', () => {
    expect(symmetricExtent([[3e-6, -2e-6]], 0.5)).toBe(0.5);
    expect(symmetricExtent([[0.8, -2e-6]], 0.5)).toBe(0.8);
    const shut = heatmapChart(
      { ...data, values: data.values.map((r) => r.map((v) => v * 3e-6)), title: 'Fallback ρ' },
      { document },
    );
    const fill = shut.querySelector('rect[data-row="beta"][data-col="A"]')!.getAttribute('fill');
    // −3e-6 on a ±0.5 scale: the colour at 0.5 − 3e-6, white to the eye (was the darkest blue).
    expect(fill).toBe(interpolateRdBu(0.5 - 3e-6));
    expect(shut.querySelector('.scale-note')?.textContent).toBe(
      'All |values| ≤ 3.0e−6: near 0 on this ±0.5 scale.',
    );
    expect(svg.querySelector('.scale-note')).toBeNull();
  });

  it('matches the snapshot', () => {
    expect(roundedSvg(svg)).toMatchSnapshot();
  });
});

describe('gateChart', () => {
  it('computes σ(w0 − κx)', () => {
    const [a, b, c] = gateCurve(1, 2, [0, 0.5, 10]);
    expect(a).toBeCloseTo(1 / (1 + Math.exp(-1)), 12);
    expect(b).toBeCloseTo(0.5, 12);
    expect(c).toBeCloseTo(1 / (1 + Math.exp(19)), 12);
  });

  const svg = gateChart(
    {
      w0: 1,
      kappa: 2,
      points: [
        { x: -1, g: 0.9, llm: 'a' },
        { x: 2, g: 0.1, llm: 'b' },
        { x: 9, g: 0, llm: 'c' },
      ],
    },
    { document },
  );

  it('draws the curve, the G = ½ marker and the points', () => {
    expect(count(svg, 'path.gate')).toBe(1);
    expect(svg.querySelector('line.midpoint title')?.textContent).toBe('G = 0.5 at θ − b̃ = 0.50');
    // The cell at x = 9 lies beyond the axis: an edge marker with a count, not a dot on the edge.
    expect(count(svg, '.points circle')).toBe(2);
    expect(svg.querySelector('.off-scale[data-side="hi"] text')?.textContent).toBe('1 beyond +6');
    expect(count(svg, '.off-scale[data-side="lo"]')).toBe(0);
    expect(svg.querySelector('circle[data-llm="b"] title')?.textContent).toBe(
      'b: θ − b̃ = 2.00, G = 0.100',
    );
  });

  it('has a legend for the curve, the points and the off-axis marker', () => {
    const labels = [...svg.querySelectorAll('.legend-item title')].map((t) => t.textContent);
    expect(labels).toEqual([
      'G, the fitted gate',
      'an observed cell (LLM, item)',
      'cells beyond the axis (1)',
    ]);
  });

  it('says so when the gate stays shut over the whole axis', () => {
    const shut = gateChart({ w0: -12, kappa: 0.1, points: [] }, { document });
    expect(shut.querySelector('.gate-note')?.textContent).toContain('almost no fallback');
    expect(svg.querySelector('.gate-note')).toBeNull();
  });

  it('matches the snapshot', () => {
    expect(roundedSvg(svg)).toMatchSnapshot();
  });
});

describe('objectiveCurveChart', () => {
  const series = Array.from({ length: 1000 }, (_, step) => ({
    step,
    objective: 2 / (1 + step / 50),
  }));

  it('thins long series, keeping the first and last points', () => {
    const t = thinSeries(series, 100);
    expect(t.length).toBeLessThanOrEqual(101);
    expect(t[0]).toBe(series[0]);
    expect(t.at(-1)).toBe(series[999]);
    expect(thinSeries(series.slice(0, 10), 100)).toHaveLength(10);
  });

  it('draws a single path and reports the latest value', () => {
    const svg = objectiveCurveChart(series, { document });
    expect(count(svg, 'path.objective')).toBe(1);
    expect(count(svg, 'circle.last')).toBe(1);
    expect(svg.getAttribute('aria-label')).toBe('Objective 0.0953 at step 999');
    const pts = svg.querySelector('path.objective')!.getAttribute('d')!.match(/[ML]/g)!;
    expect(pts.length).toBeLessThanOrEqual(240);
  });

  it('has titled axes at the progress panel size, none as a small sparkline', () => {
    const big = objectiveCurveChart(series, { document, width: 320, height: 140 });
    const labels = [...big.querySelectorAll('.axis-label')].map((t) => t.textContent);
    expect(labels).toEqual(['Optimiser step', 'Objective']);
    expect(big.querySelectorAll('g.tick').length).toBeGreaterThan(3);
    const small = objectiveCurveChart(series, { document });
    expect(small.querySelectorAll('.axis-label')).toHaveLength(0);
  });

  it('handles an empty series', () => {
    const svg = objectiveCurveChart([], { document });
    expect(count(svg, 'circle')).toBe(0);
  });

  it('matches the snapshot', () => {
    expect(roundedSvg(objectiveCurveChart(series.slice(0, 20), { document }))).toMatchSnapshot();
  });
});
