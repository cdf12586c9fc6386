import { eta, fmtBytes, fmtCount, fmtSeconds } from '../format';
import type { AppState } from '../state';

/** Bytes and rows read so far, with an ETA from the byte rate. */
export function LoadProgressView({
  loading,
  onCancel,
}: {
  loading: NonNullable<AppState['loading']>;
  onCancel: () => void;
}) {
  const p = loading.progress;
  const total = p?.totalBytes ?? 0;
  const left = p ? eta(p.bytes, total, p.elapsedMs) : NaN;
  return (
    <div className="progress-block" aria-live="polite">
      <p>Reading {loading.files.join(', ')}</p>
      <progress max={total || 1} value={p?.bytes ?? 0} aria-label="Bytes read" />
      <p className="muted" data-testid="load-progress">
        {p
          ? `${fmtBytes(p.bytes)} of ${fmtBytes(total)} · ${fmtCount(p.rows)} rows · ` +
            (Number.isFinite(left) ? `about ${fmtSeconds(left)} left` : 'estimating…')
          : 'starting…'}
      </p>
      <button type="button" className="small" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
