import { useCallback } from 'react';
import { objectiveCurveChart } from '../../charts/objectiveCurve';
import { fmtSeconds } from '../format';
import { useThrottled } from '../useThrottled';
import type { RunningFit } from '../state';
import { Chart } from './Chart';

/** One line on where a running fit is: its phase (when not the main fit), step, objective, time, optimiser. */
export function progressLine(running: RunningFit): string {
  const p = running.progress;
  if (!p) return `starting ${running.settings.model}…`;
  // A phase's sub-fits count their own steps: the main fit's cap is not theirs (it read "step 6 of at most 5").
  const at = p.phase
    ? `${p.phase}: step ${p.step}`
    : running.untilConverged
      ? `step ${p.step}, until converged`
      : `step ${p.step} of at most ${p.maxSteps}`;
  const objective = Number.isFinite(p.objective) ? ` · objective ${p.objective.toFixed(3)}` : '';
  const by = p.optimiser ? ` · ${p.optimiser}` : '';
  return `${at}${objective} · ${fmtSeconds(p.elapsedMs / 1000)}${by}`;
}

const CURVE_EVERY_MS = 1000;

/** Live progress of a fit: bar, step, objective and the objective curve so far. */
export function FitProgressView({ running }: { running: RunningFit }) {
  const p = running.progress;
  // Progress arrives up to ~10 times a second; the curve is redrawn at most once a second.
  const trace = useThrottled(running.trace, CURVE_EVERY_MS);
  const render = useCallback(
    () => objectiveCurveChart(trace, { width: 320, height: 140, title: 'Objective so far' }),
    [trace],
  );
  return (
    <div className="progress-block" data-testid="fit-progress">
      {running.untilConverged ? (
        <progress aria-label="Fit progress" />
      ) : (
        <progress max={p?.maxSteps ?? 1} value={p?.step ?? 0} aria-label="Fit progress" />
      )}
      <p className="muted" aria-live="polite">
        {progressLine(running)}
      </p>
      {trace.length > 1 && <Chart render={render} name="objective-live" className="small-chart" />}
    </div>
  );
}
