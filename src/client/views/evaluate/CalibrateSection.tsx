import { useCallback } from 'react';
import { calibrationChart } from '../../../charts/calibration';
import type { CalibrateResult } from '../../../core/eval/calibrate';
import { MODEL_TYPES, type ModelType } from '../../../core/model/types';
import { Chart } from '../../components/Chart';
import { Field, NumberField } from '../../components/Field';
import { EvalSection, useSectionRun } from './EvalSection';
import {
  CURVE_MODELS,
  DEFAULT_CALIBRATE,
  DEFAULT_SIZES,
  parseInteger,
  parseShare,
  parseSizes,
  pickedModels,
} from './options';
import { meanSdColumn, MODEL_COLUMN, ResultTable } from './ResultTable';
import { useSavedState } from './savedState';
import { calibrationChartData } from './shape';
import type { SectionProps } from './types';

function CalibrateResults({ result }: { result: CalibrateResult }) {
  const render = useCallback(() => calibrationChart(calibrationChartData(result)), [result]);
  return (
    <>
      <ResultTable
        caption="Held-out binary metrics of new LLMs by calibration fleet size"
        name="fig3b-calibration"
        rows={result.rows}
        rowKey={(r) => `${r.model}-${r.size}`}
        columns={[
          MODEL_COLUMN,
          { label: 'n', numeric: true, cell: (r) => r.sizeLabel },
          meanSdColumn('Binary log-loss', 'binaryLogLoss'),
          meanSdColumn('Brier', 'binaryBrier'),
          meanSdColumn('Binary acc.', 'binaryAcc'),
          { label: 'Draws', numeric: true, cell: (r) => r.draws },
        ]}
      />
      <Chart render={render} name="fig3b-calibration" heading="Log-loss against fleet size" />
    </>
  );
}

/** Fig. 3b: how well a bank calibrated on n LLMs predicts new ones. */
export function CalibrateSection({ ds, fitSettings, busy }: SectionProps) {
  const [models, setModels] = useSavedState<ModelType[]>('calibrate.models', [...CURVE_MODELS]);
  const [sizes, setSizes] = useSavedState('calibrate.sizes', DEFAULT_SIZES);
  const [draws, setDraws] = useSavedState('calibrate.draws', DEFAULT_CALIBRATE.draws);
  const [heldOut, setHeldOut] = useSavedState('calibrate.heldOut', DEFAULT_CALIBRATE.heldOut);
  const [seed, setSeed] = useSavedState('calibrate.seed', DEFAULT_CALIBRATE.seed);
  const [channel, setChannel] = useSavedState<'option' | 'binary'>(
    'calibrate.channel',
    DEFAULT_CALIBRATE.channel,
  );
  const run = useSectionRun(
    ds,
    'calibrate',
    () => {
      const n = parseInteger(draws, 'Draws', 1);
      return {
        req: {
          kind: 'calibrate',
          models: pickedModels(models, MODEL_TYPES),
          sizes: parseSizes(sizes),
          draws: n,
          heldOut: parseShare(heldOut, 'Held-out share'),
          seed: parseInteger(seed, 'Seed', 0),
          scoreChannel: channel,
          fitSettings,
        },
        about: `${n} draws, new LLMs scored from ${channel === 'option' ? 'full responses' : 'correctness'}`,
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
          <Field label="Fleet sizes">
            <input type="text" value={sizes} onChange={(e) => setSizes(e.target.value)} />
          </Field>
          <NumberField label="Draws" min={1} value={draws} onChange={setDraws} />
          <Field label="Held-out share">
            <input type="text" value={heldOut} onChange={(e) => setHeldOut(e.target.value)} />
          </Field>
          <NumberField label="Seed" min={0} value={seed} onChange={setSeed} />
          <Field label="Score new LLMs from">
            <select
              value={channel}
              onChange={(e) => setChannel(e.target.value as 'option' | 'binary')}
            >
              <option value="option">the full option response</option>
              <option value="binary">correctness only</option>
            </select>
          </Field>
        </div>
      }
      results={(r) => <CalibrateResults result={r.result} />}
    >
      In each draw a share of the LLMs is held out as new LLMs; banks are calibrated on the first n
      of the others, each new LLM is scored from half its items and its correctness predicted on the
      other half. &quot;all&quot; is the whole calibration pool.
    </EvalSection>
  );
}
