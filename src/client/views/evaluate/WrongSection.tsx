import { useCallback } from 'react';
import { wrongOnlyChart } from '../../../charts/wrongOnly';
import type { WrongOnlyResult } from '../../../core/eval/wrong';
import { NOMINAL_MODELS, type Channel, type ModelType } from '../../../core/model/types';
import { Chart } from '../../components/Chart';
import { Check, Field, NumberField } from '../../components/Field';
import { EvalSection, useSectionRun } from './EvalSection';
import { parseInteger } from './options';
import { meanSdColumn, ResultTable } from './ResultTable';
import { useSavedState } from './savedState';
import { SCENARIO_LABELS, wrongChartData } from './shape';
import type { SectionProps } from './types';
import { DEFAULT_MODEL } from '../../../core/defaults';

function WrongResults({ result }: { result: WrongOnlyResult }) {
  const render = useCallback(() => wrongOnlyChart(wrongChartData(result)), [result]);
  return (
    <>
      <ResultTable
        caption={`θ of held-out LLMs against the full-information θ (${result.model})`}
        name="table3-wrong-answers"
        rows={result.rows}
        rowKey={(r) => r.scenario}
        columns={[
          { label: 'Scenario', cell: (r) => SCENARIO_LABELS[r.scenario] },
          meanSdColumn('Spearman', 'spearman'),
          meanSdColumn('Pearson', 'pearson'),
          {
            label: 'Pooled Spearman / Pearson',
            numeric: true,
            cell: (r) => `${r.spearman_pooled.toFixed(3)} / ${r.pearson_pooled.toFixed(3)}`,
          },
          { label: 'Folds', numeric: true, cell: (r) => r.folds },
          { label: 'LLMs', numeric: true, cell: (r) => r.nLlms },
        ]}
      />
      <Chart render={render} name="wrong-answers" heading="Ability from wrong answers alone" />
    </>
  );
}

/** Table 3: θ from correctness only vs from the distractors of wrong answers only. */
export function WrongSection({ ds, fitSettings, busy }: SectionProps) {
  const [model, setModel] = useSavedState<ModelType>('wrong.model', DEFAULT_MODEL);
  const [folds, setFolds] = useSavedState('wrong.folds', '5');
  const [seed, setSeed] = useSavedState('wrong.seed', '1');
  const [withOption, setWithOption] = useSavedState('wrong.option', false);
  const run = useSectionRun(
    ds,
    'wrong',
    () => {
      const channels: Channel[] = withOption ? ['binary', 'wrong', 'option'] : ['binary', 'wrong'];
      const k = parseInteger(folds, 'Folds', 2);
      return {
        req: {
          kind: 'wrong',
          model,
          folds: k,
          seed: parseInteger(seed, 'Seed', 0),
          channels,
          fitSettings,
        },
        about: `${model}, ${k} folds over LLMs`,
      };
    },
    busy,
  );
  return (
    <EvalSection
      run={run}
      options={
        <>
          <div className="form-grid">
            <Field label="Nominal model">
              <select value={model} onChange={(e) => setModel(e.target.value as ModelType)}>
                {NOMINAL_MODELS.map((m) => (
                  <option key={m} value={m}>
                    {m}
                  </option>
                ))}
              </select>
            </Field>
            <NumberField label="Folds" min={2} value={folds} onChange={setFolds} />
            <NumberField label="Seed" min={0} value={seed} onChange={setSeed} />
          </div>
          <Check checked={withOption} onChange={setWithOption}>
            Also the full option response
          </Check>
        </>
      }
      results={(r) => <WrongResults result={r.result} />}
    >
      Folds over LLMs: the items are calibrated on the other LLMs, then each held-out LLM&apos;s θ
      is estimated from correctness only and from which distractor it chose when wrong only, and
      compared with θ from one fit on all LLMs. Needs a nominal model.
    </EvalSection>
  );
}
