import { useCallback, useRef } from 'react';
import { scoredLlmsChart } from '../../../charts/scoredLlms';
import type { ItemBank } from '../../../core/bank/bank';
import { DEFAULT_SETTINGS, type FitSettings, type LlmResult } from '../../../core/fit/types';
import type { LoadSource } from '../../../boundary/protocol';
import { Chart } from '../../components/Chart';
import { DataTable, type Column } from '../../components/DataTable';
import { fromDataTransfer, fromFileList, type NamedFile } from '../../dropped';
import { fmtCount, fmtPercent } from '../../format';
import { DEMO_FILES } from '../../useWorkbench';
import { getBridge } from '../../bridge';
import { dispatchBank, runTask, type BankUiState } from './store';
import { TaskStatus } from './TaskStatus';
import { HiddenFileInput } from '../../components/HiddenFileInput';

/** The demo's first 14 LLMs calibrate the bank; the other 4 are scored. */
export const DEMO_CALIBRATION_LLMS = 14;

const COLUMNS: Column<LlmResult>[] = [
  { key: 'id', label: 'LLM', value: (r) => r.id },
  { key: 'theta', label: 'θ', value: (r) => r.theta, numeric: true },
  { key: 'se', label: 'SE', value: (r) => r.thetaSE, numeric: true },
  { key: 's', label: 's', value: (r) => r.s, numeric: true },
  {
    key: 'accuracy',
    label: 'Accuracy',
    value: (r) => r.accuracy,
    render: (r) => fmtPercent(r.accuracy, 1),
    numeric: true,
  },
  {
    key: 'items',
    label: 'Items used',
    value: (r) => r.nObserved,
    render: (r) => r.nObserved,
    numeric: true,
  },
];

const demoSources = (): LoadSource[] => {
  const base = new URL(`${import.meta.env.BASE_URL}demo/`, document.baseURI);
  return DEMO_FILES.map((name) => ({ name, url: new URL(name, base).href }));
};

function scoreFiles(files: NamedFile[], bank: ItemBank, against: object): void {
  if (!files.length) return;
  void runTask(
    'score',
    'Could not score the new LLMs',
    async (signal, stage) => {
      stage('Reading the new LLMs’ data…');
      const sources = files.map(({ file, name }) => ({ name, blob: file }));
      const info = await getBridge().loadNewData(signal, sources, {}, (p) =>
        stage(`Reading the new LLMs’ data… ${fmtCount(p.rows)} rows`),
      );
      dispatchBank({ type: 'newData', info });
      stage(`Scoring ${info.llmIds.length} LLMs against the bank…`);
      return getBridge().scoreNew(signal, bank);
    },
    (result) => dispatchBank({ type: 'scored', entry: { result, against } }),
  );
}

/** Calibrates a bank on the first demo LLMs and scores the rest against it. */
function scoreHeldOutDemo(settings: FitSettings) {
  void runTask(
    'score',
    'The held-out demo failed',
    (signal, stage) =>
      getBridge().holdOut(
        signal,
        demoSources(),
        { ...DEFAULT_SETTINGS, ...settings },
        DEMO_CALIBRATION_LLMS,
        stage,
      ),
    (r) =>
      dispatchBank({
        type: 'heldOut',
        bank: r.bank,
        label: `demo bank (first ${DEMO_CALIBRATION_LLMS} demo LLMs)`,
        info: r.newData,
        result: r.score,
      }),
  );
}

/** New LLMs scored on the bank's θ scale: load their data, or hold out demo LLMs. */
export function ScoreSection(props: {
  bank: ItemBank;
  against: object;
  settings: FitSettings;
  st: BankUiState;
}) {
  const { bank, against, settings, st } = props;
  const input = useRef<HTMLInputElement>(null);
  const task = st.tasks.score;
  const score = st.score?.against === against ? st.score.result : null;
  const render = useCallback(
    () =>
      scoredLlmsChart({
        scored: (score?.llms ?? []).map((l) => ({ id: l.id, theta: l.theta, se: l.thetaSE })),
        calibration: bank.calibration.llms.map((l) => ({
          id: l.id,
          theta: l.theta,
          se: l.thetaSE,
        })),
      }),
    [score, bank],
  );
  const demo = () => scoreHeldOutDemo(settings);
  const rescore = () =>
    void runTask(
      'score',
      'Could not score the new LLMs',
      (signal) => getBridge().scoreNew(signal, bank),
      (result) => dispatchBank({ type: 'scored', entry: { result, against } }),
    );
  const notInBank = score?.notInBank ?? [];
  return (
    <section
      className="bank-section"
      data-section="score"
      data-state={task.status}
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => {
        e.preventDefault();
        void fromDataTransfer(e.dataTransfer).then((f) => scoreFiles(f, bank, against));
      }}
    >
      <h3>Score new LLMs</h3>
      <p className="muted small">
        Load (or drop here) data of LLMs the bank was not calibrated on, in any format the workbench
        reads. They are scored with every item parameter held at the bank’s values, so their θ is on
        the bank’s scale. The calibration data stays loaded.
      </p>
      <div className="row">
        <button type="button" onClick={() => input.current?.click()}>
          Load new LLM data…
        </button>
        <button type="button" onClick={demo}>
          Score held-out demo LLMs
        </button>
        {st.newData && !score && task.status !== 'running' && (
          <button type="button" onClick={rescore}>
            Score the loaded new LLMs against this bank
          </button>
        )}
        <HiddenFileInput
          ref={input}
          multiple
          accept=".csv,.jsonl,.txt"
          label="New LLM data files"
          testId="new-data-input"
          onFiles={(files) => scoreFiles(fromFileList(files ?? []), bank, against)}
        />
      </div>
      <TaskStatus name="score" task={task} />
      {st.newData && (
        <p className="small" data-testid="new-data">
          New LLMs: {st.newData.llmIds.length} LLMs × {st.newData.summary.I} items from{' '}
          {st.newData.files.join(', ')}
        </p>
      )}
      {score && (
        <>
          <p className="small" data-testid="not-in-bank">
            {notInBank.length === 0
              ? `All ${score.used} items of the new data are in the bank.`
              : `${score.used} items used; ${notInBank.length} not in the bank were ignored: ${notInBank.slice(0, 10).join(', ')}${notInBank.length > 10 ? ', …' : ''}`}
          </p>
          <DataTable
            rows={score.llms}
            columns={COLUMNS}
            rowKey={(r) => r.id}
            name="scored-llms"
            caption="Scored LLMs"
            initialSort={{ key: 'theta', desc: true }}
          />
          <Chart
            render={render}
            name="scored-llms"
            heading="Scored LLMs among the calibration LLMs (θ ± SE)"
          />
        </>
      )}
    </section>
  );
}
