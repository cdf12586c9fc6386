import type { FitEntry } from '../state';
import { gateOf, gateWords } from '../../core/model/gate';
import type { FitJson, StartTrial } from '../../core/fit/types';
import { OPEN_T, openGainT } from '../../core/fit/startRule';
import { continuingCannotHelp, stopWords } from '../../core/fit/stopWords';

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
        ? `; strength λ = ${f.priorSelection.lambda} (of the groups not fixed), chosen on held-out cells.`
        : '.')
    : '';
  const trials = f.priorSelection?.trials.length ? (
    <details className="prior-trials">
      <summary>How the prior strength was chosen</summary>
      <table className="compact" data-testid="prior-trials">
        <caption className="sr-only">Prior strength trials</caption>
        <thead>
          <tr>
            <th className="num">λ</th>
            <th className="num">held-out loss per cell</th>
            <th>converged</th>
          </tr>
        </thead>
        <tbody>
          {f.priorSelection.trials.map((t) => (
            <tr
              key={t.lambda}
              className={t.lambda === f.priorSelection!.lambda ? 'best' : undefined}
            >
              <td className="num">{t.lambda}</td>
              <td className="num">{t.heldOutLoss.toFixed(4)}</td>
              <td>{t.converged ? 'yes' : 'no'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted small">
        {f.priorSelection.reason}
        {f.priorSelection.passes ? ` (${f.priorSelection.passes} passes over the data)` : ''}
      </p>
      <StartsTable starts={f.priorSelection.starts} />
      <SpreadNote fit={f} />
    </details>
  ) : null;
  const words = gateWords(f);
  const gate = words ? (
    <p className="small" data-testid="fit-gate" data-gate={gateOf(f)}>
      {words}
    </p>
  ) : null;
  if (f.converged)
    return (
      <div className="fit-status muted" data-testid="fit-status" data-converged="true">
        Converged ({f.stopReason ?? 'gradient'}
        {norm}) after {f.steps} steps. {priors}
        {gate}
        {trials}
      </div>
    );
  const stuck = continuingCannotHelp(f);
  return (
    <div
      className="fit-warning"
      role="alert"
      data-testid="fit-status"
      data-converged="false"
      data-stop={f.stopReason}
    >
      <strong>Not converged.</strong> {stopWords(f)} Its numbers may still move, so read the charts
      with care. {priors}{' '}
      {stuck ? null : (
        <button type="button" className="primary" onClick={onContinue} disabled={busy}>
          Continue fitting
        </button>
      )}
      {gate}
      {trials}
    </div>
  );
}

/**
 * The final fit's two starts (core/fit/branch.ts): the objective has more
 * than one optimum where the gate can open, so the fit runs from the
 * documented start and from one with the gate shut, and keeps the gate-open
 * optimum only where its start's fits on the search's folds predict the
 * held-out cells better beyond the folds' noise.
 */
function StartsTable({ starts }: { starts?: StartTrial[] }) {
  if (!starts?.length) return null;
  const [a, b] = starts;
  const t = a?.foldLoss && b?.foldLoss ? openGainT(a.foldLoss, b.foldLoss) : null;
  return (
    <>
      <table className="compact" data-testid="fit-starts">
        <caption>Two starts of the final fit, kept by held-out loss</caption>
        <thead>
          <tr>
            <th>start</th>
            <th className="num">w0 at the start</th>
            <th className="num">held-out loss per cell</th>
            <th>converged</th>
            <th>kept</th>
          </tr>
        </thead>
        <tbody>
          {starts.map((t) => (
            <tr key={t.start} className={t.kept ? 'best' : undefined}>
              <td>{t.start === 'open' ? 'documented (gate open)' : 'gate shut'}</td>
              <td className="num">{t.w0}</td>
              <td className="num">{t.heldOutLoss.toFixed(4)}</td>
              <td>{t.converged ? 'yes' : 'no'}</td>
              <td>{t.kept ? 'yes' : 'no'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted small" data-testid="fit-starts-rule">
        Both starts were fitted again on every fold of the search, each fold from its own start with
        its cells held out. The gate-open optimum is the fit shown only where its fits predict the
        held-out cells better with a paired t over the folds above {OPEN_T}; otherwise the gate-shut
        one is
        {t === null ? '' : ` (the gate-open start's gain: paired t = ${t.toFixed(2)})`}.
      </p>
    </>
  );
}

/**
 * λ's own uncertainty (core/fit/strengthShare.ts): λ chosen again with each
 * fold of the search left out, and what it adds to SE(θ).
 */
function SpreadNote({ fit }: { fit: FitJson }) {
  const spread = fit.priorSelection?.spread;
  if (!spread) return null;
  let top = fit.llms[0];
  for (const l of fit.llms) if ((l.thetaSELambda ?? 0) > (top.thetaSELambda ?? 0)) top = l;
  const most = top.thetaSELambda ?? 0;
  return (
    <p className="muted small" data-testid="fit-spread">
      λ is an estimate too: chosen again with each fold left out it is{' '}
      {spread.leaveOneOut.map((l) => l.toPrecision(3)).join(', ')} (jackknife sd of log λ{' '}
      {spread.sdLogLambda.toFixed(3)}). θ moved with λ in two refits at λ·e^±{spread.step}; that
      share is in every SE(θ) shown, at most {most.toFixed(3)} ({top.id}, whose SE is{' '}
      {top.thetaSE.toFixed(3)}).
      {spread.converged ? '' : ' One of the refits did not pass the convergence test.'}
    </p>
  );
}
