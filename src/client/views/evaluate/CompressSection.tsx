import { useCallback } from 'react';
import { compressionChart } from '../../../charts/compression';
import type { CompressResult } from '../../../core/bank/compress';
import { MODEL_TYPES, type ModelType } from '../../../core/model/types';
import { Chart } from '../../components/Chart';
import { Field, NumberField } from '../../components/Field';
import { EvalSection, useSectionRun } from './EvalSection';
import {
  CURVE_MODELS,
  DEFAULT_BUDGETS,
  DEFAULT_TAU,
  parseBudgets,
  parseInteger,
  parseShare,
  pickedModels,
} from './options';
import { meanSdColumn, MODEL_COLUMN, ResultTable } from './ResultTable';
import { useSavedState } from './savedState';
import { compressionChartData } from './shape';
import type { SectionProps } from './types';

function CompressResults({ result, target }: { result: CompressResult; target: number }) {
  const render = useCallback(
    () => compressionChart(compressionChartData(result, target)),
    [result, target],
  );
  const models = Object.keys(result.smallestK);
  return (
    <>
      <ul className="plain" data-testid="smallest-k">
        {models.map((m) => (
          <li key={m}>
            <strong>{m}</strong>: smallest k with τ ≥ {target} is{' '}
            {result.smallestK[m] ?? 'none of the budgets'} (mean over folds), pooled{' '}
            {result.smallestKPooled[m] ?? 'none'}
          </li>
        ))}
      </ul>
      <ResultTable
        caption="Kendall τ of adaptive-test rankings against the whole bank"
        name="fig3a-compression"
        rows={result.rows}
        rowKey={(r) => `${r.model}-${r.k}`}
        columns={[
          MODEL_COLUMN,
          { label: 'k', numeric: true, cell: (r) => r.k },
          meanSdColumn('τ (mean ± sd over folds)', 'tau'),
          { label: 'τ pooled', numeric: true, cell: (r) => r.tau_pooled.toFixed(3) },
          { label: 'Folds', numeric: true, cell: (r) => r.folds },
        ]}
      />
      <Chart render={render} name="fig3a-compression" heading="τ against the item budget" />
    </>
  );
}

/** Fig. 3a: how few adaptively chosen items rank new LLMs like the whole bank. */
export function CompressSection({ ds, fitSettings, busy }: SectionProps) {
  const [models, setModels] = useSavedState<ModelType[]>('compress.models', [...CURVE_MODELS]);
  const [folds, setFolds] = useSavedState('compress.folds', '5');
  const [seed, setSeed] = useSavedState('compress.seed', '1');
  const [budgets, setBudgets] = useSavedState('compress.budgets', DEFAULT_BUDGETS);
  const [target, setTarget] = useSavedState('compress.target', DEFAULT_TAU);
  const run = useSectionRun(
    ds,
    'compress',
    () => {
      const picked = pickedModels(models, MODEL_TYPES);
      const k = parseInteger(folds, 'Folds', 2);
      return {
        req: {
          kind: 'compress',
          models: picked,
          folds: k,
          seed: parseInteger(seed, 'Seed', 0),
          budgets: parseBudgets(budgets),
          tauTarget: parseShare(target, 'τ target', 0, 1.000001),
          fitSettings,
        },
        about: `${k} folds over LLMs`,
      };
    },
    busy,
  );
  return (
    <EvalSection
      run={run}
      models={{ all: MODEL_TYPES, picked: models, onChange: setModels }}
      options={
        <div className="form-grid">
          <NumberField label="Folds" min={2} value={folds} onChange={setFolds} />
          <NumberField label="Seed" min={0} value={seed} onChange={setSeed} />
          <Field label="Item budgets">
            <input type="text" value={budgets} onChange={(e) => setBudgets(e.target.value)} />
          </Field>
          <Field label="τ target">
            <input type="text" value={target} onChange={(e) => setTarget(e.target.value)} />
          </Field>
        </div>
      }
      results={(reply, request) => (
        <CompressResults result={reply.result} target={request.tauTarget} />
      )}
    >
      Folds over LLMs: a bank is calibrated on the other LLMs, each held-out LLM takes an adaptive
      test, and its ranking by θ from the first k items is compared with its ranking by the whole
      bank (Kendall τ). Budgets above the item count are capped at it.
    </EvalSection>
  );
}
