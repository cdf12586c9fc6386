// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { EXPORT_TITLE_HEIGHT, svgToString } from './export';
import { iccChart } from './icc';
import { thetaRankingChart } from './thetaRanking';

const EVIL = `<script>alert(1)</script> "&'`;

function parse(text: string): Document {
  return new DOMParser().parseFromString(text, 'image/svg+xml');
}

describe('svgToString', () => {
  const svg = iccChart(
    {
      theta: [-4, 0, 4],
      traces: [
        [0.8, 0.2],
        [0.5, 0.5],
        [0.2, 0.8],
      ],
      labels: [EVIL, 'B'],
      key: 1,
      llms: [{ id: EVIL, theta: 0.3, probs: [0.4, 0.6] }],
    },
    { document },
  );
  const text = svgToString(svg);
  const doc = parse(text);

  it('produces well-formed standalone SVG with namespaces and size', () => {
    expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
    const root = doc.documentElement;
    expect(root.namespaceURI).toBe('http://www.w3.org/2000/svg');
    expect(text).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(text).toContain('xmlns:xlink="http://www.w3.org/1999/xlink"');
    expect(root.getAttribute('width')).toBe('640');
    // 320 and the title band above the chart.
    expect(root.getAttribute('height')).toBe(String(320 + EXPORT_TITLE_HEIGHT));
  });

  it('carries a visible title naming what the chart shows, above the chart', () => {
    const icc = iccChart(
      {
        theta: [-4, 4],
        traces: [
          [0.5, 0.5],
          [0.5, 0.5],
        ],
        labels: ['A', 'B'],
        key: 0,
      },
      { document, title: 'Option curves of item NAEP-1 over θ' },
    );
    const root = parse(svgToString(icc)).documentElement;
    const title = root.querySelector(':scope > text.export-title');
    expect(title?.textContent).toBe('Option curves of item NAEP-1 over θ');
    // Everything drawn sits below the band: one shifted group holds the chart.
    const shifted = root.querySelector(':scope > g[transform]');
    expect(shifted?.getAttribute('transform')).toBe(`translate(0,${EXPORT_TITLE_HEIGHT})`);
    expect(root.getAttribute('viewBox')).toBe(`0 0 640 ${320 + EXPORT_TITLE_HEIGHT}`);
    expect(
      parse(svgToString(icc, false)).documentElement.querySelector('text.export-title'),
    ).toBeNull();
  });

  it('keeps malicious labels as text, never as elements', () => {
    expect(doc.getElementsByTagName('script')).toHaveLength(0);
    expect(text).not.toContain('<script>');
    const circle = doc.querySelector('circle[data-llm]')!;
    expect(circle.getAttribute('data-llm')).toBe(EVIL);
    // The point's tooltip is its LLM group's title.
    expect(circle.parentElement?.querySelector(':scope > title')?.textContent).toContain(EVIL);
    const legend = [...doc.querySelectorAll('.legend-item title')].map((t) => t.textContent);
    expect(legend).toContain(`A: ${EVIL}`);
  });

  it('does not modify the on-screen node', () => {
    expect(svg.getAttribute('xmlns:xlink')).toBeNull();
    expect(svg.style.maxWidth).toBe('100%');
  });

  it('fills in absolute dimensions from the viewBox when size is relative', () => {
    const ranked = thetaRankingChart([{ id: EVIL, theta: 0, se: 0.1, accuracy: 0.5 }], {
      document,
    });
    ranked.setAttribute('width', '100%');
    const root = parse(svgToString(ranked)).documentElement;
    expect(root.getAttribute('width')).toBe('640');
    expect(root.querySelector('.llm-row')?.getAttribute('aria-label')).toContain(EVIL);
  });

  it('inlines computed styles for a node attached to a page', () => {
    const host = document.createElement('div');
    document.body.append(host);
    host.append(svg);
    const attached = parse(svgToString(svg));
    host.remove();
    expect(attached.getElementsByTagName('parsererror')).toHaveLength(0);
    expect(attached.querySelectorAll('circle[data-llm]')).toHaveLength(2);
  });
});
