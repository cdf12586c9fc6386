// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { thetaAccuracyChart, wrapText } from './thetaAccuracy';
import { count, roundedSvg } from './testing';

const data = {
  model: 'llmnrm',
  rho: 0.909,
  points: [
    {
      label: 'Qwen2.5-72B',
      accuracy: 0.96,
      theta: 1.3,
      thetaSE: 0.2,
      rankTheta: 1,
      rankAccuracy: 1,
    },
    {
      label: 'OLMo-2-7B',
      accuracy: 0.86,
      theta: -0.4,
      thetaSE: 0.25,
      rankTheta: 3,
      rankAccuracy: 3,
    },
    {
      label: 'Qwen2.5-1.5B',
      accuracy: 0.88,
      theta: -2.24,
      thetaSE: 0.27,
      rankTheta: 4,
      rankAccuracy: 2,
      marker: 1,
    },
    {
      label: 'Llama-3.2-1B',
      accuracy: 0.44,
      theta: -1.1,
      thetaSE: 0.3,
      rankTheta: 2,
      rankAccuracy: 4,
      marker: 2,
    },
    { label: 'no-data', accuracy: NaN, theta: 0 },
  ],
  notes: [
    {
      marker: 1,
      text: 'Qwen2.5-1.5B: 88% correct (2nd of 4) but θ = −2.24 ranks it 4th, because its sharpness s = 1.44 is the highest: the fit explains its confident answers, right and wrong, by a large s and a low θ.',
    },
    { marker: 2, text: 'Llama-3.2-1B: 44% correct (4th of 4) but θ = −1.10 ranks it 2nd.' },
  ],
};

describe('thetaAccuracyChart', () => {
  const svg = thetaAccuracyChart(data, { document });

  it('draws a point per finite LLM, marks the disagreeing ones with their number and note', () => {
    expect(count(svg, 'g.point')).toBe(4);
    expect(count(svg, 'g.point.marked')).toBe(2);
    expect(svg.querySelector('g.marked[data-llm="Qwen2.5-1.5B"] text')?.textContent).toBe('1');
    expect(svg.querySelector('g[data-llm="Qwen2.5-1.5B"] title')?.textContent).toBe(
      'Qwen2.5-1.5B: accuracy 88.0%, θ −2.24 ± 0.27; rank 4 by θ, 2 by accuracy',
    );
    const notes = [...svg.querySelectorAll('text.note')];
    expect(notes.map((n) => n.getAttribute('data-marker'))).toEqual(['1', '2']);
    const lines = [...notes[0].querySelectorAll('tspan')].map((t) => t.textContent);
    expect(lines.join(' ')).toBe(`1. ${data.notes[0].text}`);
    expect(lines.length).toBe(3);
    const legend = [...svg.querySelectorAll('.legend-item text')].map((t) => t.textContent);
    expect(legend[0]).toBe('llmnrm (Spearman ρ = 0.91)');
  });

  it('puts higher accuracy to the right and higher θ up', () => {
    const c = (llm: string) => svg.querySelector(`[data-llm="${llm}"] circle`)!;
    expect(Number(c('Qwen2.5-72B').getAttribute('cx'))).toBeGreaterThan(
      Number(c('Llama-3.2-1B').getAttribute('cx')),
    );
    expect(Number(c('Qwen2.5-72B').getAttribute('cy'))).toBeLessThan(
      Number(c('Qwen2.5-1.5B').getAttribute('cy')),
    );
  });

  it('grows with its notes and wraps them at spaces', () => {
    const bare = thetaAccuracyChart({ ...data, notes: [] }, { document });
    expect(Number(svg.getAttribute('height'))).toBeGreaterThan(Number(bare.getAttribute('height')));
    expect(wrapText('aa bb cc dd', 5)).toEqual(['aa bb', 'cc dd']);
  });

  it('matches the snapshot', () => {
    expect(roundedSvg(svg)).toMatchSnapshot();
  });
});
