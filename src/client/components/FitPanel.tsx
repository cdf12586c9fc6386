import { useEffect, useId, useState } from 'react';
import { ENGINE_CHOICES, type EngineChoice } from '../../core/engines/types';
import type { FitSettings, OptimizerName } from '../../core/fit/types';
import type { Mode } from '../../core/model/params';
import type { GateForm } from '../../core/model/gate';
import { MODEL_TYPES, type ModelType } from '../../core/model/types';
import type { EngineResolution } from '../../boundary/protocol';
import { getBridge } from '../bridge';
import type { RunningFit } from '../state';
import { Field, NumberField } from './Field';
import { FitProgressView } from './FitProgressView';
import { PriorField } from './PriorField';

export interface FitPanelProps {
  settings: FitSettings;
  onSettings: (s: FitSettings) => void;
  canFit: boolean;
  running: RunningFit | null;
  onFit: () => void;
  onCancel: () => void;
  /** The prior field's error (Fit is refused while there is one), and where it is told. */
  priorError: string | null;
  onPriorError: (error: string | null) => void;
}

const MODEL_NOTES: Record<ModelType, string> = {
  llmnrm: 'LLM-NRM: sharpness, position bias, fallback',
  'no-sharpness': 'LLM-NRM without sharpness',
  'no-position': 'LLM-NRM without position bias',
  'no-fallback': 'LLM-NRM without fallback',
  'nrm-soft': "Bock's NRM, soft targets",
  'nrm-hard': "Bock's NRM, argmax targets",
  '1pl': 'binary 1PL',
  '2pl': 'binary 2PL',
  '3pl': 'binary 3PL',
  '4pl': 'binary 4PL',
};

/** Shows which engine a choice runs here, and why (asks the worker). */
function useEngineResolution(choice: EngineChoice): EngineResolution | null {
  const [res, setRes] = useState<{ choice: EngineChoice; r: EngineResolution } | null>(null);
  useEffect(() => {
    const ac = new AbortController();
    getBridge()
      .resolveEngine(ac.signal, choice)
      .then((r) => setRes({ choice, r }))
      .catch(() => undefined);
    return () => ac.abort();
  }, [choice]);
  return res && res.choice === choice ? res.r : null;
}

/** Model, engine and optimiser settings, the Fit / Cancel buttons and live progress. */
export function FitPanel({
  settings: s,
  onSettings,
  canFit,
  running,
  onFit,
  onCancel,
  priorError,
  onPriorError,
}: FitPanelProps) {
  const id = useId();
  const engine = useEngineResolution(s.engine);
  const set = <K extends keyof FitSettings>(k: K, v: FitSettings[K]) =>
    onSettings({ ...s, [k]: v });
  const num = (k: 'steps' | 'lr' | 'seed', v: string) => {
    const x = Number(v);
    if (v !== '' && Number.isFinite(x)) set(k, k === 'lr' ? x : Math.round(x));
  };
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Fit</h2>
      {/* Above the settings and sticky at the top: always reachable, and on first view it
          covers none of the fields (at the bottom it hid Optimiser and Mode at 1440 × 900). */}
      <div className="fit-actions" data-testid="fit-actions">
        <div className="row">
          <button
            type="button"
            className="primary"
            onClick={onFit}
            disabled={!canFit || priorError !== null}
          >
            Fit
          </button>
          <button type="button" onClick={onCancel} disabled={!running}>
            Cancel
          </button>
        </div>
        {running && <FitProgressView running={running} />}
      </div>
      <div className="form-grid">
        <Field label="Model">
          <select value={s.model} onChange={(e) => set('model', e.target.value as ModelType)}>
            {MODEL_TYPES.map((m) => (
              <option key={m} value={m}>
                {m} ({MODEL_NOTES[m]})
              </option>
            ))}
          </select>
        </Field>
        <Field label="Engine">
          <select value={s.engine} onChange={(e) => set('engine', e.target.value as EngineChoice)}>
            {ENGINE_CHOICES.map((e) => (
              <option key={e} value={e}>
                {e}
              </option>
            ))}
          </select>
        </Field>
        <p className="engine-note muted" data-testid="engine-note">
          {engine ? `Runs on ${engine.name}: ${engine.reason}` : 'Checking engines…'}
        </p>
        <Field label="Optimiser">
          <select
            value={s.optimizer}
            onChange={(e) => set('optimizer', e.target.value as OptimizerName)}
          >
            <option value="fast">fast (L-BFGS to convergence)</option>
            <option value="adam">adam (the paper's full-batch Adam)</option>
          </select>
        </Field>
        <Field label="Mode">
          <select
            value={s.mode}
            onChange={(e) => {
              // Paper mode is eq. 10's gate exactly: a margin choice does not carry over.
              const mode = e.target.value as Mode;
              onSettings({ ...s, mode, gate: mode === 'paper' ? undefined : s.gate });
            }}
          >
            <option value="default">well-posed (default)</option>
            <option value="paper">paper (eq. 15 as written)</option>
          </select>
        </Field>
        <Field label="Fallback gate">
          <select
            value={s.mode === 'paper' ? 'eq10' : (s.gate ?? 'margin')}
            disabled={s.mode === 'paper'}
            onChange={(e) => set('gate', e.target.value as GateForm)}
          >
            <option value="margin">margin: σ[w0 − κ·f(θ)] (default)</option>
            <option value="eq10">paper's eq. 10: σ[w0 − κ(θ − b̃)]</option>
          </select>
        </Field>
        <NumberField
          label={s.optimizer === 'adam' ? 'Steps' : 'Max iterations'}
          min={1}
          step={1}
          value={s.steps}
          onChange={(v) => num('steps', v)}
        />
        <NumberField
          label="Learning rate"
          min={0}
          step="any"
          value={s.lr}
          disabled={s.optimizer !== 'adam'}
          onChange={(v) => num('lr', v)}
        />
        <NumberField label="Seed" step={1} value={s.seed} onChange={(v) => num('seed', v)} />
      </div>
      <PriorField
        value={s.prior}
        disabled={s.mode === 'paper'}
        onChange={(p) => set('prior', p)}
        onValidity={onPriorError}
      />
    </section>
  );
}
