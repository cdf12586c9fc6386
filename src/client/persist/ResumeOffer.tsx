import type { FitSettings } from '../../core/fit/types';
import type { SessionView } from './useSession';
import { time } from './SessionPanel';

/**
 * The offer to resume a fit that a reload or a crash interrupted (or a
 * "Continue fitting" that was cancelled: its steps are kept), at the top
 * of the main area (seen without scrolling), in place of the shown fit's
 * convergence banner: until it is resumed or discarded, the shown fit is the
 * last one that finished, not the one that was running.
 */
export function ResumeOffer({
  session: s,
  engine,
  showingOlder,
}: {
  session: SessionView;
  /** The Fit panel's engine: a resumed fit runs there. */
  engine: FitSettings['engine'];
  /** Whether an earlier finished fit is shown below. */
  showingOlder: boolean;
}) {
  const cp = s.interrupted;
  if (!cp) return null;
  const what = `${cp.replaces !== undefined ? 'continuation of ' : ''}${cp.settings.model} fit (${cp.settings.optimizer})`;
  const start = cp.phase === 'start' || cp.x.length === 0;
  return (
    <div
      className="fit-warning resume-offer"
      role="status"
      data-testid="resume-offer"
      data-phase={start ? 'start' : 'fit'}
      data-step={cp.step}
    >
      <p>
        <strong>
          {cp.replaces !== undefined ? 'A continuation was stopped.' : 'A fit was interrupted.'}
        </strong>{' '}
        {start
          ? `The ${what} was stopped before its first checkpoint (while choosing its prior strength or warming up), saved ${time(cp.savedAt)}. Resuming runs it again with the same settings on ${engine}.`
          : `The ${what} stopped at step ${cp.step}, saved ${time(cp.savedAt)}. Resuming starts from there on ${engine}.`}
        {showingOlder && ' The results below are of the last fit that finished.'}
      </p>
      <div className="row">
        <button type="button" className="primary" onClick={() => s.resume(engine)}>
          {start ? 'Resume fit (from the start)' : `Resume fit (step ${cp.step})`}
        </button>
        <button type="button" onClick={s.discard}>
          Discard
        </button>
      </div>
    </div>
  );
}
