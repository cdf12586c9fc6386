import { ENGINE_CHOICES, type EngineChoice } from '../../../core/engines/types';
import type { Dataset } from '../../../core/data/types';
import type { FitJson, OptimizerName } from '../../../core/fit/types';
import type { EvalFitSettings } from '../../../boundary/evaluateProtocol';
import { Field, NumberField } from '../../components/Field';
import type { FitEntry } from '../../state';
import { CalibrateSection } from './CalibrateSection';
import { CompressSection } from './CompressSection';
import { CvSection } from './CvSection';
import './evaluate.css';
import { ExternalSection } from './ExternalSection';
import { InfoSection } from './InfoSection';
import { useLastStatus } from './runs';
import { useSavedState } from './savedState';
import { WrongSection } from './WrongSection';

export interface EvaluateViewProps {
  /** The fit on show (Figs 2a/2b read it). */
  fit: FitJson;
  ds: Dataset;
  /** Every completed fit (Table 2 correlates each one's θ). */
  fits: FitEntry[];
  /** A load or fit is running. */
  busy: boolean;
}

/**
 * The paper's evaluation suite on the loaded data: each run goes to the
 * worker, shows progress with Cancel, and ends in a table (CSV) and a chart
 * (SVG/PNG). `data-state` is the status of the run started last.
 */
export function EvaluateView({ fit, ds, fits, busy }: EvaluateViewProps) {
  const status = useLastStatus(ds);
  const [engine, setEngine] = useSavedState<EngineChoice>('eval.engine', 'auto');
  const [optimizer, setOptimizer] = useSavedState<OptimizerName>('eval.optimizer', 'fast');
  const [steps, setSteps] = useSavedState('eval.steps', 2500);
  const fitSettings: EvalFitSettings = {
    engine,
    optimizer,
    // As the CLI: Adam runs the paper's objective as written, the fast optimiser the well-posed one.
    mode: optimizer === 'adam' ? 'paper' : 'default',
    steps,
  };
  const fitLabel = fits.find((f) => f.fit === fit)?.label ?? fit.model;
  const common = { ds, busy };
  return (
    <div className="evaluate-view" data-testid="evaluate" data-state={status}>
      <p className="lead">
        The paper&apos;s evaluation suite on the loaded data ({ds.J} LLMs × {ds.I} items). Runs fit
        many models in the background worker; one runs at a time, and a new load or fit cancels it.
      </p>
      <details className="panel eval-fit-settings">
        <summary>Fit settings for every run</summary>
        <div className="form-grid">
          <Field label="Engine for every run">
            <select value={engine} onChange={(e) => setEngine(e.target.value as EngineChoice)}>
              {ENGINE_CHOICES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Optimiser for every run">
            <select
              value={optimizer}
              onChange={(e) => setOptimizer(e.target.value as OptimizerName)}
            >
              <option value="fast">fast (L-BFGS, well-posed)</option>
              <option value="adam">adam (the paper&apos;s, eq. 15)</option>
            </select>
          </Field>
          <NumberField
            label="Steps per fit"
            min={1}
            value={steps}
            onChange={(v) => {
              const n = Math.round(Number(v));
              if (n >= 1) setSteps(n);
            }}
          />
        </div>
      </details>
      <CvSection {...common} fitSettings={fitSettings} />
      <ExternalSection {...common} fits={fits} />
      <WrongSection {...common} fitSettings={fitSettings} />
      <InfoSection {...common} fit={fit} fitLabel={fitLabel} />
      <CompressSection {...common} fitSettings={fitSettings} />
      <CalibrateSection {...common} fitSettings={fitSettings} />
    </div>
  );
}
