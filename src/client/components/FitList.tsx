import { useCallback, useId } from 'react';
import type { FitJson } from '../../core/fit/types';
import { objectiveCurveChart } from '../../charts/objectiveCurve';
import { downloadBlob } from '../../charts/export';
import type { FitEntry } from '../state';
import { fmtSeconds } from '../format';
import { slug } from '../slug';
import { Chart } from './Chart';
import { ReportButton } from './ReportButton';
import { DataTable, fmtNum, type Column } from './DataTable';

const COLUMNS: Column<FitEntry>[] = [
  { key: 'fit', label: 'Fit', value: (f) => f.label },
  { key: 'objective', label: 'Objective', value: (f) => f.fit.objective, numeric: true },
  {
    key: 'meanCrossEntropy',
    label: 'Mean CE',
    value: (f) => f.fit.meanCrossEntropy,
    render: (f) => fmtNum(f.fit.meanCrossEntropy, 4),
    numeric: true,
  },
  {
    key: 'seconds',
    label: 'Time',
    value: (f) => f.fit.seconds,
    render: (f) => fmtSeconds(f.fit.seconds),
    numeric: true,
  },
  {
    key: 'steps',
    label: 'Steps',
    value: (f) => f.fit.steps,
    render: (f) => f.fit.steps,
    numeric: true,
  },
  { key: 'converged', label: 'Converged', value: (f) => (f.fit.converged ? 'yes' : 'no') },
];

/** The objective over the optimiser's steps of a completed fit. */
function FitTrace({ fit }: { fit: FitJson }) {
  const render = useCallback(
    () => objectiveCurveChart(fit.trace, { width: 320, height: 140, title: 'Objective by step' }),
    [fit],
  );
  return <Chart render={render} name="objective" className="small-chart" />;
}

/** The completed fits: pick the one shown, compare them, export or drop one. */
export function FitList(props: {
  fits: FitEntry[];
  shown: number | null;
  onShow: (id: number) => void;
  onRemove: (id: number) => void;
}) {
  const id = useId();
  const shown = props.fits.find((f) => f.id === props.shown);
  const exportJson = () => {
    if (!shown) return;
    const text = JSON.stringify(shown.fit, null, 2);
    downloadBlob(new Blob([text], { type: 'application/json' }), `${slug(shown.label)}.fit.json`);
  };
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Fits</h2>
      <fieldset className="fit-list">
        <legend className="sr-only">Fit shown in the views</legend>
        {props.fits.map((f) => (
          <div key={f.id} className="fit-item">
            <label>
              <input
                type="radio"
                name={`${id}-shown`}
                checked={f.id === props.shown}
                onChange={() => props.onShow(f.id)}
              />
              {f.label}
              {f.origin === 'import' ? ' (imported)' : ''}
            </label>
            <button
              type="button"
              className="small link"
              aria-label={`Remove ${f.label}`}
              onClick={() => props.onRemove(f.id)}
            >
              ×
            </button>
          </div>
        ))}
      </fieldset>
      {shown && (
        <p className="muted small" data-testid="fit-info">
          {shown.fit.steps} steps in {fmtSeconds(shown.fit.seconds)}
          {shown.fit.converged ? ', converged' : ''} · {shown.fit.engine}: {shown.fit.engineReason}
          {shown.fit.precision === 'mixed' ? ' · float32 warm-up, float64 finish' : ''}
        </p>
      )}
      {shown && shown.fit.trace.length > 1 && <FitTrace fit={shown.fit} />}
      <div className="row">
        <button type="button" onClick={exportJson} disabled={!shown}>
          Export fit.json
        </button>
        {shown && <ReportButton fit={shown.fit} label={shown.label} />}
      </div>
      {props.fits.length > 1 && (
        <DataTable
          rows={props.fits}
          columns={COLUMNS}
          rowKey={(f) => f.id}
          name="fits"
          caption="Comparison of fits"
        />
      )}
    </section>
  );
}
