import { useCallback, useId, useState } from 'react';
import { catTraceChart } from '../../../charts/catTrace';
import type { ItemBank } from '../../../core/bank/bank';
import type { CatStep } from '../../../core/bank/cat';
import type { ItemText } from '../../../core/data/types';
import type { CatSource } from '../../../boundary/bankProtocol';
import { Chart } from '../../components/Chart';
import { DataTable, type Column } from '../../components/DataTable';
import { NumberField } from '../../components/Field';
import { getBridge } from '../../bridge';
import { catSettings, downloadTiny, STOP_TEXT } from './catForm';
import { InteractiveCat } from './InteractiveCat';
import { dispatchBank, runTask, type BankUiState } from './store';
import { TaskStatus } from './TaskStatus';
import { CAT_DEFAULTS } from '../../../core/defaults';

export interface CatSectionProps {
  bank: ItemBank;
  against: object;
  st: BankUiState;
  /** LLMs of the calibration data (the loaded data set). */
  calibrationLlms: string[];
  /** θ of an LLM from all its responses, when known (for the trace's reference line). */
  referenceTheta: (from: CatSource, id: string) => number | null;
  texts: ReadonlyMap<string, ItemText | null>;
}

type StepRow = CatStep & { n: number };

const STEP_COLUMNS: Column<StepRow>[] = [
  { key: 'n', label: '#', value: (r) => r.n, numeric: true, render: (r) => r.n },
  { key: 'item', label: 'Item', value: (r) => r.item },
  { key: 'theta', label: 'θ after', value: (r) => r.theta, numeric: true },
  { key: 'se', label: 'SE after', value: (r) => r.se, numeric: true },
];

/** The LLMs of one group as options whose values say the group and the index. */
function llmOptions(group: 'new' | 'calibration', names: readonly string[]) {
  return names.map((l, j) => (
    <option key={l} value={`${group}:${j}`}>
      {l}
    </option>
  ));
}

/** Adaptive testing: simulated against an LLM's full responses, or interactive. */
export function CatSection(props: CatSectionProps) {
  const { bank, against, st, calibrationLlms, referenceTheta, texts } = props;
  const id = useId();
  const newLlms = st.newData?.llmIds ?? [];
  const [pick, setPick] = useState('');
  const [maxItems, setMaxItems] = useState(String(CAT_DEFAULTS.maxItems));
  const [se, setSe] = useState('');
  const options = [
    ...newLlms.map((_l, j) => `new:${j}`),
    ...calibrationLlms.map((_l, j) => `calibration:${j}`),
  ];
  const chosen = options.includes(pick) ? pick : (options[0] ?? '');
  const cat = st.cat?.against === against ? st.cat : null;

  const run = () =>
    void runTask(
      'cat',
      'The adaptive test failed',
      async (signal) => {
        if (!chosen) throw new Error('Choose an LLM to test.');
        const settings = catSettings(maxItems, se);
        const [from, j] = chosen.split(':') as [CatSource, string];
        const result = await getBridge().simulateCat(signal, bank, from, Number(j), settings);
        return { result, from, reference: referenceTheta(from, result.llm), against };
      },
      (entry) => dispatchBank({ type: 'catDone', entry }),
    );
  const render = useCallback(
    () =>
      catTraceChart({
        steps: cat?.result.trace ?? [],
        start: { theta: 0, se: 1 },
        reference:
          cat?.reference !== null && cat?.reference !== undefined
            ? { theta: cat.reference, label: 'all responses' }
            : undefined,
      }),
    [cat],
  );
  const rows: StepRow[] = (cat?.result.trace ?? []).map((s, i) => ({ ...s, n: i + 1 }));
  return (
    <section className="bank-section" data-section="cat" data-state={st.tasks.cat.status}>
      <h3>Adaptive test (CAT)</h3>
      <p className="muted small">
        Each next item is the one with the most information at the current θ; θ and SE are
        re-estimated after every answer. The simulation answers from the LLM’s recorded responses.
      </p>
      <div className="row">
        <div className="field">
          <label htmlFor={`${id}-llm`}>LLM</label>
          <select id={`${id}-llm`} value={chosen} onChange={(e) => setPick(e.target.value)}>
            {newLlms.length > 0 && (
              <optgroup label="New LLMs">{llmOptions('new', newLlms)}</optgroup>
            )}
            <optgroup label="Calibration data">
              {llmOptions('calibration', calibrationLlms)}
            </optgroup>
          </select>
        </div>
        <NumberField label="Max items" min={1} step={1} value={maxItems} onChange={setMaxItems} />
        <NumberField
          label="SE target (optional)"
          min={0}
          step={0.01}
          placeholder="none"
          value={se}
          onChange={setSe}
        />
        <button type="button" className="primary" onClick={run} disabled={!chosen}>
          Run adaptive test
        </button>
      </div>
      <TaskStatus name="cat" task={st.tasks.cat} />
      {cat && (
        <>
          <p data-testid="cat-summary">
            <strong>{cat.result.llm}</strong>: θ = {cat.result.theta.toFixed(3)} ±{' '}
            {cat.result.se.toFixed(3)} after{' '}
            <span data-testid="cat-count">{cat.result.items.length}</span> items (
            {STOP_TEXT[cat.result.stopped]})
            {cat.reference !== null && <> · from all responses: θ = {cat.reference.toFixed(3)}</>}
          </p>
          <Chart render={render} name="cat-trace" heading="θ (±SE) against items given" />
          <DataTable
            rows={rows}
            columns={STEP_COLUMNS}
            rowKey={(r) => r.n}
            name="cat-items"
            caption="Items chosen by the adaptive test"
          />
          <button type="button" onClick={() => downloadTiny(bank, cat.result.items, texts)}>
            Export tiny benchmark (CSV)
          </button>
        </>
      )}
      <InteractiveCat
        bank={bank}
        against={against}
        st={st}
        texts={texts}
        settings={() => catSettings(maxItems, se)}
      />
    </section>
  );
}
