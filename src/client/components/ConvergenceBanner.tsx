import type { FitEntry } from '../state';

/**
 * Says plainly whether the shown fit converged, why it stopped, and with what
 * priors; a fit that did not converge gets a warning and a way to go on.
 */
export function ConvergenceBanner({
  entry,
  busy,
  onContinue,
}: {
  entry: FitEntry;
  busy: boolean;
  onContinue: () => void;
}) {
  const f = entry.fit;
  const norm = f.gradNorm === undefined ? '' : `, gradient norm ${f.gradNorm.toExponential(1)}`;
  const priors = f.priors?.length
    ? `Priors (sd): ${f.priors.map((p) => `${p.group} ${p.sd.toPrecision(2)}${p.learned ? '' : ' fixed'}`).join(', ')}` +
      (f.priorSelection
        ? `; strength λ = ${f.priorSelection.lambda}, chosen on held-out cells.`
        : '.')
    : '';
  if (f.converged)
    return (
      <p className="fit-status muted" data-testid="fit-status" data-converged="true">
        Converged ({f.stopReason ?? 'gradient'}
        {norm}) after {f.steps} steps. {priors}
      </p>
    );
  const why =
    f.optimizer === 'adam'
      ? `Adam runs a fixed ${f.steps} steps (the paper's method) and has no convergence test`
      : `It stopped by ${f.stopReason ?? 'its step cap'}${norm} after ${f.steps} steps`;
  return (
    <div className="fit-warning" role="alert" data-testid="fit-status" data-converged="false">
      <strong>Not converged.</strong> {why}; its numbers may still move, so read the charts with
      care. {priors}{' '}
      <button type="button" className="primary" onClick={onContinue} disabled={busy}>
        Continue fitting
      </button>
    </div>
  );
}
