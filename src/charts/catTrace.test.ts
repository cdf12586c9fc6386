// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { catTraceChart, tracePoints } from './catTrace';
import { count, roundedSvg } from './testing';

const steps = [
  { item: 'q7', theta: 0.6, se: 0.7 },
  { item: 'q2', theta: 0.9, se: 0.5 },
  { item: 'q9', theta: 0.8, se: 0.4 },
  { item: 'q4', theta: 0.85, se: 0.32 },
];

describe('tracePoints', () => {
  it('numbers the steps from 1 and puts the start at n = 0', () => {
    expect(tracePoints({ steps }).map((p) => p.n)).toEqual([1, 2, 3, 4]);
    const withStart = tracePoints({ steps, start: { theta: 0, se: 1 } });
    expect(withStart[0]).toEqual({ n: 0, theta: 0, se: 1 });
    expect(withStart).toHaveLength(5);
  });
});

describe('catTraceChart', () => {
  const data = { steps, start: { theta: 0, se: 1 }, reference: { theta: 0.8, label: 'full data' } };
  const svg = catTraceChart(data, { document });

  it('draws one point per item given, in order, with its θ and SE in the title', () => {
    const pts = [...svg.querySelectorAll('circle.step')];
    expect(pts.map((c) => c.getAttribute('data-item'))).toEqual(['q7', 'q2', 'q9', 'q4']);
    expect(pts[1].getAttribute('data-n')).toBe('2');
    expect(pts[1].querySelector('title')?.textContent).toBe('2. q2: θ = 0.90 ± 0.50');
  });

  it('has the ±SE band, the θ line and the reference line', () => {
    expect(count(svg, 'path.band')).toBe(1);
    expect(count(svg, 'path.theta')).toBe(1);
    expect(svg.querySelector('.reference text')?.textContent).toBe('full data: θ = 0.80');
  });

  it('places points by n: later items further right, higher θ further up', () => {
    const cx = (n: number) =>
      Number(svg.querySelector(`circle[data-n="${n}"]`)!.getAttribute('cx'));
    const cy = (n: number) =>
      Number(svg.querySelector(`circle[data-n="${n}"]`)!.getAttribute('cy'));
    expect(cx(2) - cx(1)).toBeCloseTo(cx(4) - cx(3), 9);
    expect(cy(2)).toBeLessThan(cy(1));
  });

  it('says so when no item was given', () => {
    const empty = catTraceChart({ steps: [] }, { document });
    expect(count(empty, 'circle.step')).toBe(0);
    expect(empty.textContent).toContain('No items given yet');
  });

  it('matches the snapshot', () => {
    expect(roundedSvg(svg)).toMatchSnapshot();
  });
});
