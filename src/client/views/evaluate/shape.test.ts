import { describe, expect, it } from 'vitest';
import type { CompressResult } from '../../../core/bank/compress';
import type { CalibrateResult } from '../../../core/eval/calibrate';
import type { CrossValidateResult } from '../../../core/eval/cv';
import type { FitJson } from '../../../core/fit/types';
import {
  calibrationChartData,
  compressionChartData,
  cvChartData,
  externalChartData,
  meanSd,
} from './shape';

describe('evaluation results → chart data', () => {
  it('formats mean ± sd', () => {
    expect(meanSd(0.87654, 0.0041)).toBe('0.877 ± 0.004');
    expect(meanSd(NaN, 1)).toBe('—');
    expect(meanSd(1, undefined, 1)).toBe('1.0 ± —');
  });

  it('turns Table 1 summaries into one cell per model and metric', () => {
    const r = {
      folds: 2,
      seed: 1,
      perFold: [],
      summary: [
        { model: 'llmnrm', optionAcc_mean: 0.9, optionAcc_sd: 0.01, binaryBrier_mean: 0.07 },
      ],
    } as unknown as CrossValidateResult;
    const d = cvChartData(r);
    expect(d.models).toEqual(['llmnrm']);
    expect(d.cells).toHaveLength(5);
    expect(d.cells[0]).toEqual({ model: 'llmnrm', metric: 'optionAcc', mean: 0.9, sd: 0.01 });
    expect(d.cells[4]).toMatchObject({ metric: 'binaryBrier', mean: 0.07 });
    expect(d.cells[4].sd).toBeNaN();
  });

  it('groups compression and calibration rows into one series per model', () => {
    const c = {
      budgets: [5, 10],
      rows: [
        { model: 'llmnrm', k: 5, tau_mean: 0.8, tau_sd: 0.1 },
        { model: 'llmnrm', k: 10, tau_mean: 0.9, tau_sd: 0 },
        { model: '2pl', k: 5, tau_mean: 0.7, tau_sd: 0.1 },
      ],
      smallestK: { llmnrm: 10, '2pl': null },
    } as unknown as CompressResult;
    expect(compressionChartData(c, 0.85)).toEqual({
      target: 0.85,
      series: [
        {
          model: 'llmnrm',
          smallestK: 10,
          points: [
            { k: 5, tau: 0.8, sd: 0.1 },
            { k: 10, tau: 0.9, sd: 0 },
          ],
        },
        { model: '2pl', smallestK: null, points: [{ k: 5, tau: 0.7, sd: 0.1 }] },
      ],
    });
    const cal = {
      rows: [
        {
          model: '2pl',
          size: 13,
          sizeLabel: 'all (13)',
          binaryLogLoss_mean: 0.66,
          binaryLogLoss_sd: 0.01,
        },
      ],
    } as unknown as CalibrateResult;
    expect(calibrationChartData(cal).series[0].points).toEqual([
      { n: 13, label: 'all (13)', mean: 0.66, sd: 0.01 },
    ]);
  });

  it('pairs θ with external scores over the used matches', () => {
    const fit = {
      llms: [
        { id: 'a', theta: 1 },
        { id: 'b', theta: -1 },
      ],
    } as FitJson;
    const d = externalChartData(
      [fit],
      ['llmnrm'],
      [
        { name: 'A', score: 1200 },
        { name: 'B', score: 1100 },
      ],
      [
        { ours: 'a', theirs: 'A', how: 'exact' },
        { ours: 'b', theirs: 'missing', how: 'exact' },
      ],
      [0.5],
      'Arena score',
    );
    expect(d).toEqual({
      xLabel: 'Arena score',
      series: [{ name: 'llmnrm', rho: 0.5, points: [{ label: 'a', x: 1200, y: 1 }] }],
    });
  });
});
