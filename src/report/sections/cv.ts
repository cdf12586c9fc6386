/** Section 8: the held-out model comparison (core/eval/cv.ts), when asked for. */
import type { CrossValidateResult } from '../../core/eval/cv';
import { fmt, int, numCell, section, table, textCell } from '../html';

const METRICS = [
  'optionLogLoss',
  'optionAcc',
  'binaryLogLoss',
  'binaryAcc',
  'binaryBrier',
] as const;

export function cvSection(cv: CrossValidateResult | undefined): string {
  if (!cv)
    return section(
      'cv',
      '8. Held-out model comparison',
      'Not run: the held-out comparison refits every model on each fold, which takes much longer than the report; the CLI runs it with --with-cv (or llm-nrm evaluate cv).',
      '',
    );
  const rows = [...cv.summary];
  const head = ['model', ...METRICS.flatMap((m) => [m, `${m} sd`])];
  const body = rows.map((r) => [
    textCell(String(r.model)),
    ...METRICS.flatMap((m) => [
      numCell(fmt(Number(r[`${m}_mean`]), 4)),
      numCell(fmt(Number(r[`${m}_sd`]), 4)),
    ]),
  ]);
  const best = [...rows]
    .filter((r) => Number.isFinite(Number(r.optionLogLoss_mean)))
    .sort((a, b) => Number(a.optionLogLoss_mean) - Number(b.optionLogLoss_mean))[0];
  const reading = best
    ? `Over ${int(cv.folds)} folds of held-out cells (seed ${cv.seed}), ${best.model} predicts the held-out option distributions best (log-loss ${fmt(Number(best.optionLogLoss_mean), 4)} nats per cell); lower log-loss and Brier, higher accuracy are better.`
    : `Over ${int(cv.folds)} folds of held-out cells (seed ${cv.seed}); binary models have no option-level metric.`;
  return section(
    'cv',
    '8. Held-out model comparison',
    reading,
    table('Held-out metrics per model (mean and sd over folds)', head, body),
  );
}
