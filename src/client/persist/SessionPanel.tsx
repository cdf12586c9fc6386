import { useId } from 'react';
import type { FitSettings } from '../../core/fit/types';
import type { SessionView } from './useSession';

const time = (ms: number) => new Date(ms).toLocaleString();

/**
 * What this browser keeps of the session: a "Restored session from …" line,
 * "Clear saved session", the running fit's last checkpoint, and the offer to
 * resume a fit that a reload or crash interrupted.
 */
export function SessionPanel({
  session: s,
  engine,
}: {
  session: SessionView;
  /** The Fit panel's engine: a resumed fit runs there. */
  engine: FitSettings['engine'];
}) {
  const id = useId();
  const saved = s.status === 'restored' || s.status === 'saved';
  const cp = s.interrupted;
  if (s.status === 'checking') return null;
  return (
    <section
      className="panel session"
      aria-labelledby={`${id}-h`}
      data-testid="session"
      data-session={s.status}
      data-pending={s.pending}
    >
      <h2 id={`${id}-h`}>Session</h2>
      {s.status === 'restored' && s.restoredFrom !== null && (
        <p role="status" data-testid="session-restored">
          Restored session from {time(s.restoredFrom)}.
        </p>
      )}
      {s.status === 'saved' && (
        <p className="muted small">Your data and fits are kept in this browser.</p>
      )}
      {(s.status === 'none' || s.status === 'cleared') && (
        <p className="muted small">
          Nothing is saved. What you load and fit is kept in this browser.
        </p>
      )}
      {s.checkpointStep !== null && (
        <p className="muted small" data-testid="checkpoint" data-step={s.checkpointStep}>
          Checkpoint saved at step {s.checkpointStep}.
        </p>
      )}
      {cp && (
        <div className="resume-offer" role="status" data-testid="resume-offer">
          <p>
            A {cp.settings.model} fit ({cp.settings.optimizer}) stopped at step {cp.step}, saved{' '}
            {time(cp.savedAt)}. Resuming starts from there on {engine}.
          </p>
          <div className="row">
            <button type="button" className="primary" onClick={() => s.resume(engine)}>
              Resume fit (step {cp.step})
            </button>
            <button type="button" onClick={s.discard}>
              Discard
            </button>
          </div>
        </div>
      )}
      {s.problem && (
        <p className="muted small" role="status" data-testid="session-problem">
          {s.problem}
        </p>
      )}
      {saved && (
        <div className="row">
          <button type="button" className="small" onClick={s.clear}>
            Clear saved session
          </button>
        </div>
      )}
    </section>
  );
}
