// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { iccChart, iccChartParts, llmProbsTitle, type IccData } from './icc';
import { count, roundedSvg } from './testing';

const theta = [-4, -2, 0, 2, 4];
// A 3-option item whose key (B) rises with θ while C is a "partial knowledge" distractor.
const traces = [
  [0.7, 0.1, 0.2],
  [0.5, 0.2, 0.3],
  [0.2, 0.4, 0.4],
  [0.05, 0.8, 0.15],
  [0.01, 0.97, 0.02],
];
const data: IccData = {
  theta,
  traces,
  labels: ['Mars', 'the Sun', 'Saturn'],
  key: 1,
  llms: [
    { id: 'alpha', theta: -1.5, probs: [0.6, 0.1, 0.3] },
    { id: 'beta', theta: 0.5, probs: [0.1, 0.7, 0.2] },
    { id: 'gamma', theta: 5, probs: [0, 1, 0] },
    { id: 'delta', theta: 2.25, probs: [0.12, 0.8, 0.08] },
  ],
};

describe('iccChart', () => {
  const svg = iccChart(data, { document });

  it('is an accessible image', () => {
    expect(svg.getAttribute('role')).toBe('img');
    expect(svg.getAttribute('aria-label')).toMatch(/3 options/);
    expect(svg.querySelector('title')?.textContent).toBe(svg.getAttribute('aria-label'));
  });

  it('draws one trace per option with the key emphasised and drawn last', () => {
    const paths = [...svg.querySelectorAll('path.trace')];
    expect(paths).toHaveLength(3);
    expect(paths.at(-1)?.getAttribute('data-option')).toBe('1');
    expect(paths.at(-1)?.getAttribute('stroke-width')).toBe('3.5');
    expect(paths.at(-1)?.querySelector('title')?.textContent).toBe(
      "Option B: the Sun (key): the model's P(option) over θ",
    );
  });

  it('says what the curves are in each curve tooltip and under the legend', () => {
    const noted = iccChart({ ...data, curveNote: 'a reference LLM (s = 1)' }, { document });
    for (const t of noted.querySelectorAll('path.trace title'))
      expect(t.textContent).toContain('(a reference LLM (s = 1))');
    const lines = [...noted.querySelectorAll('.curve-note tspan')].map((t) => t.textContent);
    expect(lines.join(' ')).toBe('Curves: a reference LLM (s = 1).');
  });

  it('draws a rug tick per LLM and one point per LLM per option', () => {
    expect(count(svg, '.rug line')).toBe(4);
    expect(count(svg, 'circle[data-llm]')).toBe(4 * 3);
    for (const id of ['alpha', 'beta', 'gamma', 'delta']) {
      expect(count(svg, `circle[data-llm="${id}"]`)).toBe(3);
    }
    expect(count(svg, 'circle[data-option="2"]')).toBe(4);
  });

  it('labels each LLM point with its observed distribution', () => {
    // The title sits on the LLM's group, so it is the tooltip of each of its points.
    const point = svg.querySelector('circle[data-llm="delta"]')!;
    const t = point.parentElement?.querySelector(':scope > title')?.textContent;
    expect(t).toBe('delta (θ = 2.25): A 0.12, B 0.80 (key), C 0.08');
    expect(llmProbsTitle({ id: 'x', theta: -1, probs: [0.5, 0.5] }, 0)).toBe(
      'x (θ = −1.00): A 0.50 (key), B 0.50',
    );
  });

  it('clamps out-of-range θ to the plot', () => {
    const xs = [...svg.querySelectorAll('circle[data-llm="gamma"]')].map((c) =>
      c.getAttribute('cx'),
    );
    const right = Number(svg.getAttribute('width')) - 170 - 48;
    expect(xs.every((v) => Math.abs(Number(v) - right) < 1e-9)).toBe(true);
  });

  it("has a legend entry per option and one for the LLMs' dots", () => {
    expect(count(svg, '.legend-item')).toBe(3 + 1);
    expect(count(svg, '.legend-item circle')).toBe(1);
  });

  it('matches the snapshot', () => {
    expect(roundedSvg(svg)).toMatchSnapshot();
  });
});

describe('iccChartParts', () => {
  it('draws the curves at once and the LLMs in steps that complete iccChart', () => {
    const { node, more } = iccChartParts(data, { document }, 3);
    expect(node.querySelectorAll('path.trace')).toHaveLength(3);
    expect(node.querySelectorAll('.llm-points circle')).toHaveLength(0);
    expect(more).toHaveLength(2); // 4 LLMs (gamma's θ is finite too), 3 a step
    more[0]();
    expect(node.querySelectorAll('.llm-points > g')).toHaveLength(3);
    more[1]();
    expect(roundedSvg(node)).toBe(roundedSvg(iccChart(data, { document })));
  });
});
