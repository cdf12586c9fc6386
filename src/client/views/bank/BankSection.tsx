import { useRef } from 'react';
import { downloadBlob } from '../../../charts/export';
import type { ItemBank } from '../../../core/bank/bank';
import { bankJson, bankSummary, parameterTableCsv, readBankText } from './files';
import { dispatchBank, runTask, type Task } from './store';
import { TaskStatus } from './TaskStatus';
import { HiddenFileInput } from '../../components/HiddenFileInput';
import { useDropTarget } from '../../useDropTarget';

export interface BankSectionProps {
  /** The bank in use: the loaded one, or the shown fit's. */
  bank: ItemBank;
  label: string;
  loaded: boolean;
  /** A fresh bank of the shown fit (dated now), for saving. */
  fitBank: () => ItemBank;
  task: Task;
}

function loadBankFile(file: File | undefined): void {
  if (!file) return;
  void runTask(
    'bank',
    `Could not load ${file.name} as an item bank`,
    async () => readBankText(await file.text(), file.name),
    (bank) => dispatchBank({ type: 'bankLoaded', bank, label: file.name }),
  );
}

/** The bank in use; save it, export its parameter table, or load another. */
export function BankSection({ bank, label, loaded, fitBank, task }: BankSectionProps) {
  const input = useRef<HTMLInputElement>(null);
  const drop = useDropTarget((dt) => loadBankFile(dt.files[0]));
  const save = () => {
    const b = loaded ? bank : fitBank();
    downloadBlob(new Blob([bankJson(b)], { type: 'application/json' }), 'bank.json');
  };
  const table = () =>
    downloadBlob(new Blob([parameterTableCsv(bank)], { type: 'text/csv' }), 'bank-parameters.csv');
  const p = bank.provenance;
  return (
    <section className="bank-section" data-section="bank" data-state={task.status}>
      <h3>Item bank</h3>
      <p data-testid="active-bank">
        In use: <strong>{label}</strong> · {bankSummary(bank)}
      </p>
      <details>
        <summary>Provenance</summary>
        <ul className="plain small">
          <li>Data files: {p.dataFiles.length ? p.dataFiles.join(', ') : '(not recorded)'}</li>
          <li>Made: {loaded ? p.date : 'now (when saved)'}</li>
          <li>
            Fit: {p.settings.model}, {p.settings.mode} mode, {p.settings.optimizer} optimiser,{' '}
            {bank.calibration.steps} steps{bank.calibration.converged ? ', converged' : ''}
          </li>
        </ul>
      </details>
      <div
        className={`bank-drop row${drop.over ? ' over' : ''}`}
        data-testid="bank-drop"
        {...drop.handlers}
      >
        <button type="button" onClick={save}>
          Save bank
        </button>
        <button type="button" onClick={table}>
          Export parameter table (CSV)
        </button>
        <button type="button" onClick={() => input.current?.click()}>
          Load bank…
        </button>
        {loaded && (
          <button type="button" onClick={() => dispatchBank({ type: 'useFit' })}>
            Use the shown fit as the bank
          </button>
        )}
        <span className="muted small">or drop a bank.json here</span>
        <HiddenFileInput
          ref={input}
          accept=".json,application/json"
          label="Bank file"
          testId="bank-file-input"
          onFiles={(files) => loadBankFile(files?.[0])}
        />
      </div>
      <TaskStatus name="bank" task={task} />
    </section>
  );
}
