import { fmtSeconds } from '../../format';
import type { EvalKind } from '../../../boundary/evaluateProtocol';
import type { RunState } from './runs';

/** Run and Cancel, a progress bar with the stage in words, and how the last run ended. */
export function RunControls<K extends EvalKind>({
  state,
  onRun,
  onCancel,
  blocked,
}: {
  state: RunState<K>;
  onRun: () => void;
  onCancel: () => void;
  /** Why Run is unavailable (another evaluation, a fit or a load is running). */
  blocked: string | null;
}) {
  const p = state.progress;
  const running = state.status === 'running';
  // The fit in progress counts as its share of one unit, so the bar moves during long fits.
  const part = p?.fit ? Math.min(1, p.fit.step / Math.max(1, p.fit.maxSteps)) : 0;
  return (
    <div className="eval-run">
      <div className="row">
        <button type="button" className="primary" onClick={onRun} disabled={running || !!blocked}>
          Run
        </button>
        {running && (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        )}
        {blocked && !running && <span className="muted">{blocked}</span>}
      </div>
      {running && (
        <div className="progress-block" data-testid="eval-progress">
          <progress
            max={p?.total || 1}
            value={p ? Math.min(p.total, p.done + part) : 0}
            aria-label="Evaluation progress"
          />
          <p className="muted" aria-live="polite">
            {p
              ? `${p.stage} · ${p.done} of ${p.total} done` +
                (p.fit ? ` · fit step ${p.fit.step}` : '') +
                ` · ${fmtSeconds(p.elapsedMs / 1000)}`
              : 'starting…'}
          </p>
        </div>
      )}
      {state.status === 'error' && state.error && (
        <div className="eval-error" role="alert">
          <strong>{state.error.title}</strong>: {state.error.message}
        </div>
      )}
      {state.status === 'cancelled' && (
        <p className="muted" role="status">
          {state.stage ?? 'Cancelled.'}
        </p>
      )}
      {state.status === 'done' && state.reply && (
        <p className="muted">
          Finished in {fmtSeconds(state.reply.seconds)}
          {state.about ? ` · ${state.about}` : ''}.
        </p>
      )}
    </div>
  );
}
