import { useCallback } from 'react';
import { cvMetricsChart } from '../../../charts/cvMetrics';
import type { CrossValidateResult } from '../../../core/eval/cv';
import type { ModelType } from '../../../core/model/types';
import { Chart } from '../../components/Chart';
import { NumberField } from '../../components/Field';
import { EvalSection, useSectionRun } from './EvalSection';
import { CV_MODELS, parseInteger, pickedModels } from './options';
import { bestRow, MODEL_COLUMN, ResultTable } from './ResultTable';
import { useSavedState } from './savedState';
import { CV_METRICS, cvChartData, meanSd } from './shape';
import type { SectionProps } from './types';

/**
 * Says in words when the full model is not the best on held-out option
 * log-loss (the primary criterion): a reader should not have to find it.
 */
function FullModelNote({ result }: { result: CrossValidateResult }) {
  const rows = result.summary;
  const full = rows.find((r) => r.model === 'llmnrm');
  const at = bestRow(rows, { value: (r) => Number(r.optionLogLoss_mean), better: 'lower' });
  if (!full || at < 0) return null;
  const best = rows[at];
  if (best.model === 'llmnrm')
    return (
      <p className="note" data-testid="cv-comment">
        The full model (llmnrm) has the lowest held-out option log-loss here (★ marks the best value
        in each column).
      </p>
    );
  return (
    <p className="note" data-testid="cv-comment">
      The full model (llmnrm) is <strong>not</strong> the best on held-out option log-loss here:{' '}
      {best.model} has {Number(best.optionLogLoss_mean).toFixed(3)} against{' '}
      {Number(full.optionLogLoss_mean).toFixed(3)}. On these data its extra terms (sharpness,
      position bias, fallback) do not pay for themselves in prediction; ★ marks the best value in
      each column.
    </p>
  );
}

function CvResults({ result }: { result: CrossValidateResult }) {
  const render = useCallback(() => cvMetricsChart(cvChartData(result)), [result]);
  return (
    <>
      <ResultTable
        caption={`Held-out prediction: mean ± sd over ${result.folds} folds`}
        name="table1-held-out-prediction"
        rows={result.summary}
        rowKey={(r) => r.model}
        columns={[
          MODEL_COLUMN,
          ...CV_METRICS.map((m) => ({
            label: m.label,
            numeric: true,
            cell: (r: (typeof result.summary)[number]) =>
              meanSd(r[`${m.key}_mean`], r[`${m.key}_sd`]),
            best: {
              value: (r: (typeof result.summary)[number]) => Number(r[`${m.key}_mean`]),
              better: m.better,
            },
          })),
        ]}
      />
      <FullModelNote result={result} />
      <Chart render={render} name="cv-metrics" heading="Held-out prediction per model" />
    </>
  );
}

/** Table 1: cell-level K-fold prediction of held-out responses, per model. */
export function CvSection({ ds, fitSettings, busy }: SectionProps) {
  const [models, setModels] = useSavedState<ModelType[]>('cv.models', [...CV_MODELS]);
  const [folds, setFolds] = useSavedState('cv.folds', '5');
  const [seed, setSeed] = useSavedState('cv.seed', '1');
  const run = useSectionRun(
    ds,
    'cv',
    () => {
      const picked = pickedModels(models, CV_MODELS);
      const k = parseInteger(folds, 'Folds', 2);
      return {
        req: {
          kind: 'cv',
          models: picked,
          folds: k,
          seed: parseInteger(seed, 'Seed', 0),
          fitSettings,
        },
        about: `${k} folds × ${picked.length} models`,
      };
    },
    busy,
  );
  return (
    <EvalSection
      run={run}
      models={{ all: CV_MODELS, picked: models, onChange: setModels }}
      options={
        <div className="form-grid">
          <NumberField label="Folds" min={2} value={folds} onChange={setFolds} />
          <NumberField label="Seed" min={0} value={seed} onChange={setSeed} />
        </div>
      }
      results={(r) => <CvResults result={r.result} />}
    >
      The observed (LLM, item) cells are split into folds; each model is fitted without one fold and
      predicts it. Option metrics score the predicted answer distribution, binary metrics the
      predicted P(key). {`${folds}`} folds × {models.length} models ={' '}
      {Number(folds) * models.length || '?'} fits.
    </EvalSection>
  );
}
