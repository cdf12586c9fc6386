// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { bestByMetric, cvMetricsChart, zoomedDomain, type CvMetricsData } from './cvMetrics';
import { count, roundedSvg } from './testing';

const data: CvMetricsData = {
  models: ['llmnrm', 'nrm-soft', '2pl'],
  metrics: [
    { key: 'optionAcc', label: 'Option acc.', better: 'higher' },
    { key: 'binaryLogLoss', label: 'Binary log-loss', better: 'lower' },
  ],
  cells: [
    { model: 'llmnrm', metric: 'optionAcc', mean: 0.876, sd: 0.004 },
    { model: 'nrm-soft', metric: 'optionAcc', mean: 0.87, sd: 0.01 },
    { model: '2pl', metric: 'optionAcc', mean: 0.86, sd: 0 },
    { model: 'llmnrm', metric: 'binaryLogLoss', mean: 0.35, sd: 0.02 },
    { model: 'nrm-soft', metric: 'binaryLogLoss', mean: 0.31, sd: 0.03 },
    { model: '2pl', metric: 'binaryLogLoss', mean: NaN, sd: NaN },
  ],
};

describe('bestByMetric', () => {
  it('takes the highest or lowest mean, skipping non-finite means', () => {
    const best = bestByMetric(data);
    expect(best.get('optionAcc')).toBe('llmnrm');
    expect(best.get('binaryLogLoss')).toBe('nrm-soft');
  });
});

describe('cvMetricsChart', () => {
  const svg = cvMetricsChart(data, { document });

  it("keeps neighbouring panels' tick labels apart: the last tick ends at its panel's edge, labels are plain numbers", () => {
    for (const panel of svg.querySelectorAll('g.panel')) {
      const labels = [...panel.querySelectorAll('.tick text')];
      expect(labels.length).toBeGreaterThanOrEqual(2);
      expect(labels.at(-1)?.getAttribute('text-anchor')).toBe('end');
      for (const l of labels) expect(l.textContent).toMatch(/^−?\d+(\.\d+)?$|^-?\d+(\.\d+)?$/);
    }
  });

  it("titles every panel axis (with the metric's unit when given) and explains the marks", () => {
    const titled = cvMetricsChart(
      { ...data, metrics: [{ ...data.metrics[0], unit: 'share of cells' }, data.metrics[1]] },
      { document },
    );
    const titles = [...titled.querySelectorAll('g.panel .axis-label')].map((t) => t.textContent);
    expect(titles).toEqual(['share of cells', 'Binary log-loss']);
    expect(titled.querySelector('.cv-legend')?.textContent).toContain('whisker');
  });

  it('draws one panel per metric and one dot per finite cell', () => {
    expect(count(svg, 'g.panel')).toBe(2);
    expect(count(svg, 'g.cv-bar')).toBe(5);
    expect(count(svg, 'g.cv-bar .whisker')).toBe(4);
    const t = svg.querySelector('g.cv-bar[data-model="llmnrm"][data-metric="optionAcc"] title');
    expect(t?.textContent).toBe('llmnrm: Option acc. 0.876 ± 0.004 (best)');
    expect(
      svg.querySelector('g.panel[data-metric="binaryLogLoss"] .panel-title')?.textContent,
    ).toBe('Binary log-loss ↓');
  });

  it('places dots by their means on an axis zoomed to the values, so 0.01 apart is visible', () => {
    const cx = (m: string, metric: string) =>
      Number(
        svg
          .querySelector(`g.cv-bar[data-model="${m}"][data-metric="${metric}"] circle.dot`)!
          .getAttribute('cx'),
      );
    // Option accuracy 0.876 vs 0.86 (0.016 apart) spans a good part of a ≥ 176 px panel.
    expect(cx('llmnrm', 'optionAcc') - cx('2pl', 'optionAcc')).toBeGreaterThan(40);
    // Lower log-loss further left.
    expect(cx('nrm-soft', 'binaryLogLoss')).toBeLessThan(cx('llmnrm', 'binaryLogLoss'));
    const [lo, hi] = zoomedDomain(data.cells.filter((c) => c.metric === 'optionAcc'));
    expect(lo).toBeGreaterThan(0.8);
    expect(hi).toBeLessThan(0.95);
    expect(svg.querySelector('.cv-legend')?.textContent).toContain('not from 0');
  });

  it('wraps a long axis title over two lines within its panel', () => {
    const long = cvMetricsChart(
      {
        ...data,
        metrics: [0, 1, 2, 3].map((k) => ({
          ...data.metrics[0],
          key: `m${k}`,
          unit: 'argmax = observed argmax (share of held-out cells)',
        })),
      },
      { document },
    );
    for (const t of long.querySelectorAll('g.panel .axis-label'))
      expect(t.querySelectorAll('tspan')).toHaveLength(2);
  });

  it('matches the snapshot', () => {
    expect(roundedSvg(svg)).toMatchSnapshot();
  });
});
