import { memo } from 'react';
import type { LoadedData, RunningFit } from '../state';
import { estimateFitSeconds } from '../fitEstimate';
import { LoadedItems } from '../views/LoadedItems';
import { progressLine } from './FitProgressView';

// Memoised: a running fit's progress re-renders PreFit ~10 times a second, and
// a table of thousands of items must not be redrawn each time.
const Items = memo(LoadedItems);

/**
 * The main area while loaded data has no fit yet: the running fit's progress
 * with Cancel (an automatic fit), or the time a fit should take with one Fit
 * button; below, the loaded items at once.
 */
export function PreFit({
  data,
  running,
  model,
  onFit,
  onCancel,
  priorError = null,
}: {
  data: LoadedData;
  running: RunningFit | null;
  model: string;
  onFit: () => void;
  onCancel: () => void;
  /** The Fit panel's prior field error: no fit starts from here while there is one. */
  priorError?: string | null;
}) {
  const { J, I } = data.dataset;
  return (
    <>
      {running ? (
        <div className="fit-offer" data-testid="fit-running">
          <p aria-live="polite">
            Fitting {running.settings.model} to {J} LLMs × {I} items: {progressLine(running)}. The
            curves appear here when it is done.
          </p>
          {/* "Stop", not a second "Cancel": the Fit panel's Cancel stays the one Cancel. */}
          <button type="button" onClick={onCancel}>
            Stop fitting
          </button>
        </div>
      ) : (
        <div className="fit-offer" data-testid="fit-offer">
          <p>
            Data loaded: {J} LLMs × {I} items. A default fit should take about{' '}
            {Math.ceil(estimateFitSeconds(data.dataset))} s here.
          </p>
          <button
            type="button"
            className="primary"
            onClick={onFit}
            disabled={priorError !== null}
            aria-describedby={priorError !== null ? 'prefit-prior-error' : undefined}
          >
            Fit {model}
          </button>
          {priorError !== null && (
            <p id="prefit-prior-error" className="field-error" data-testid="prefit-prior-error">
              Fix the prior sds in the Fit panel first: {priorError}
            </p>
          )}
        </div>
      )}
      <Items ds={data.dataset} preview={data.summary.items} />
    </>
  );
}
