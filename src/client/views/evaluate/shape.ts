/**
 * Shapes evaluation results into chart data and table cells. Pure, like
 * chartData.ts; the results are the core's, unchanged, so CSVs match the CLI.
 */
import type { CalibrationData } from '../../../charts/calibration';
import type { CompressionData } from '../../../charts/compression';
import type { CvMetric, CvMetricsData } from '../../../charts/cvMetrics';
import type { ExternalScatterData } from '../../../charts/externalScatter';
import type { WrongOnlyRow } from '../../../charts/wrongOnly';
import type { CompressResult } from '../../../core/bank/compress';
import type { CalibrateResult } from '../../../core/eval/calibrate';
import type { CrossValidateResult } from '../../../core/eval/cv';
import type { ExternalScore } from '../../../core/eval/external';
import type { NameMatch } from '../../../core/eval/names';
import type { WrongOnlyResult } from '../../../core/eval/wrong';
import type { FitJson } from '../../../core/fit/types';
import type { Channel } from '../../../core/model/types';

/** Table 1's metrics, in the paper's order. */
export const CV_METRICS: CvMetric[] = [
  {
    key: 'optionAcc',
    label: 'Option acc.',
    better: 'higher',
    unit: 'argmax = observed argmax (share)',
  },
  {
    key: 'optionLogLoss',
    label: 'Option log-loss',
    better: 'lower',
    unit: 'cross-entropy (nats per cell)',
  },
  {
    key: 'binaryAcc',
    label: 'Binary acc.',
    better: 'higher',
    unit: 'correctness predicted (share)',
  },
  { key: 'binaryLogLoss', label: 'Binary log-loss', better: 'lower', unit: 'nats per cell' },
  { key: 'binaryBrier', label: 'Brier', better: 'lower', unit: 'squared error per cell' },
];

export const SCENARIO_LABELS: Record<Channel, string> = {
  binary: 'Correctness only',
  wrong: 'Wrong answers only',
  option: 'Full option response',
};

/** "0.876 ± 0.004"; "—" when the mean is not finite. */
export function meanSd(mean: unknown, sd: unknown, digits = 3): string {
  const m = Number(mean);
  const s = Number(sd);
  if (!Number.isFinite(m)) return '—';
  return `${m.toFixed(digits)} ± ${Number.isFinite(s) ? s.toFixed(digits) : '—'}`;
}

export function cvChartData(r: CrossValidateResult): CvMetricsData {
  return {
    models: r.summary.map((s) => s.model),
    metrics: CV_METRICS,
    cells: r.summary.flatMap((s) =>
      CV_METRICS.map((m) => ({
        model: s.model,
        metric: m.key,
        mean: Number(s[`${m.key}_mean`]),
        sd: Number(s[`${m.key}_sd`]),
      })),
    ),
  };
}

export function wrongChartData(r: WrongOnlyResult): WrongOnlyRow[] {
  return r.rows.map((row) => ({
    scenario: SCENARIO_LABELS[row.scenario],
    spearman: { mean: row.spearman_mean, sd: row.spearman_sd },
    pearson: { mean: row.pearson_mean, sd: row.pearson_sd },
  }));
}

export function compressionChartData(r: CompressResult, target: number): CompressionData {
  const models = [...new Set(r.rows.map((row) => row.model))];
  return {
    target,
    series: models.map((model) => ({
      model,
      smallestK: r.smallestK[model] ?? null,
      points: r.rows
        .filter((row) => row.model === model)
        .map((row) => ({ k: row.k, tau: row.tau_mean, sd: row.tau_sd })),
    })),
  };
}

export function calibrationChartData(r: CalibrateResult): CalibrationData {
  const models = [...new Set(r.rows.map((row) => row.model))];
  return {
    series: models.map((model) => ({
      model,
      points: r.rows
        .filter((row) => row.model === model)
        .map((row) => ({
          n: row.size,
          label: row.sizeLabel,
          mean: Number(row.binaryLogLoss_mean),
          sd: Number(row.binaryLogLoss_sd),
        })),
    })),
  };
}

/**
 * θ of each matched LLM in each fit against its external score: one series
 * per fit, named `names[f]`, with that fit's ρ when known.
 */
export function externalChartData(
  fits: FitJson[],
  names: string[],
  scores: readonly ExternalScore[],
  used: readonly NameMatch[],
  rho: (number | undefined)[],
  xLabel: string,
): ExternalScatterData {
  const score = new Map(scores.map((s) => [s.name, s.score]));
  return {
    xLabel,
    series: fits.map((fit, f) => {
      const theta = new Map(fit.llms.map((l) => [l.id, l.theta]));
      return {
        name: names[f],
        rho: rho[f],
        points: used.flatMap((m) => {
          const x = score.get(m.theirs);
          const y = theta.get(m.ours);
          return x === undefined || y === undefined ? [] : [{ label: m.ours, x, y }];
        }),
      };
    }),
  };
}
