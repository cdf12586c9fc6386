import { useId } from 'react';
import type { SessionView } from './useSession';

export const time = (ms: number) => new Date(ms).toLocaleString();

/**
 * What this browser keeps of the session: a "Restored session from …" line,
 * "Clear saved session" and the running fit's last checkpoint. The offer to
 * resume a fit that a reload or crash interrupted is in the main area
 * (ResumeOffer.tsx), where it is seen without scrolling.
 */
export function SessionPanel({ session: s }: { session: SessionView }) {
  const id = useId();
  const saved = s.status === 'restored' || s.status === 'saved';
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
      {s.checkpointStep !== null &&
        (s.checkpointPhase === 'start' ? (
          <p className="muted small" data-testid="fit-recorded">
            Fit recorded: after a reload it is offered again, with these settings.
          </p>
        ) : (
          <p className="muted small" data-testid="checkpoint" data-step={s.checkpointStep}>
            Checkpoint saved at step {s.checkpointStep}.
          </p>
        ))}
      {s.interrupted && (
        <p className="muted small">An interrupted fit can be resumed (above the results).</p>
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
