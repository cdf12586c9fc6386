import { useId, useRef, useState } from 'react';
import type { ValueKind } from '../../core/data/types';
import type { LoadOptions } from '../../boundary/protocol';
import { fromDataTransfer, fromFileList, type NamedFile } from '../dropped';
import type { AppState } from '../state';
import { Check, Field } from './Field';
import { HiddenFileInput } from './HiddenFileInput';
import { useDropTarget } from '../useDropTarget';
import { LoadProgressView } from './LoadProgressView';

export interface LoadPanelProps {
  loading: AppState['loading'];
  onFiles: (files: NamedFile[], opts: LoadOptions) => void;
  onDemo: () => void;
  onCancel: () => void;
}

/** Drop zone, keyboard-accessible file picker, "Load demo" and parser options. */
export function LoadPanel({ loading, onFiles, onDemo, onCancel }: LoadPanelProps) {
  const input = useRef<HTMLInputElement>(null);
  const folder = useRef<HTMLInputElement>(null);
  const [valueKind, setValueKind] = useState<'' | ValueKind>('');
  const [model, setModel] = useState('');
  const [lengthNormalise, setLengthNormalise] = useState(false);
  const [strict, setStrict] = useState(false);
  const id = useId();

  const opts = (): LoadOptions => ({
    ...(valueKind ? { valueKind } : {}),
    ...(model.trim() ? { model: model.trim() } : {}),
    ...(lengthNormalise ? { lengthNormalise } : {}),
    ...(strict ? { strict } : {}),
  });
  const take = (files: NamedFile[]) => {
    if (files.length) onFiles(files, opts());
  };
  const drop = useDropTarget((dt) => void fromDataTransfer(dt).then(take));

  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Data</h2>
      <div
        className={`dropzone${drop.over ? ' over' : ''}`}
        data-testid="dropzone"
        {...drop.handlers}
      >
        <p>
          Drop data files or folders here: wide or long CSV (with an items CSV), harness{' '}
          <code>.jsonl</code> logs (in per-model folders), or a <code>fit.json</code> with its data.
        </p>
        <div className="row">
          <button type="button" onClick={() => input.current?.click()}>
            Choose files…
          </button>
          <button type="button" onClick={() => folder.current?.click()}>
            Choose folder…
          </button>
          <button type="button" onClick={onDemo}>
            Load demo
          </button>
        </div>
        <HiddenFileInput
          ref={input}
          id={`${id}-file`}
          multiple
          accept=".csv,.jsonl,.json,.txt,.gz,.parquet,.eval"
          label="Data files"
          testId="file-input"
          onFiles={(files) => take(fromFileList(files ?? []))}
        />
        <HiddenFileInput
          ref={folder}
          directory
          label="A folder of data files (harness logs in per-model folders)"
          testId="folder-input"
          onFiles={(files) => take(fromFileList(files ?? []))}
        />
      </div>
      <details className="options">
        <summary>Reading options</summary>
        <Field label="Values">
          <select
            value={valueKind}
            onChange={(e) => setValueKind(e.target.value as '' | ValueKind)}
          >
            <option value="">detect</option>
            <option value="prob">probabilities</option>
            <option value="logprob">log-probabilities</option>
            <option value="weight">unnormalised weights</option>
          </select>
        </Field>
        <Field label="Model name for harness logs">
          <input
            type="text"
            value={model}
            placeholder="default: the folder name"
            onChange={(e) => setModel(e.target.value)}
          />
        </Field>
        <Check checked={lengthNormalise} onChange={setLengthNormalise}>
          Length-normalise harness log-likelihoods
        </Check>
        <Check checked={strict} onChange={setStrict}>
          Strict: fail on any file that cannot be used (instead of skipping it with its reason)
        </Check>
      </details>
      {loading && <LoadProgressView loading={loading} onCancel={onCancel} />}
    </section>
  );
}
