/** Section 2: the fit — model, gate, convergence, prior strength, engine, time, and how to reproduce it. */
import type { Dataset } from '../../core/data/types';
import type { FitJson } from '../../core/fit/types';
import { gateWords } from '../../core/model/gate';
import { stopWords } from '../../core/fit/stopWords';
import { OPEN_T } from '../../core/fit/startRule';
import { version } from '../../../package.json';
import { datasetFileNamer } from '../caps';
import { esc, fmt, int, section, table, textCell, figure } from '../html';
import { strengthCurveChart } from '../svg/strengthCurve';

/** Convergence in words: the stop reason and the gradient norm. */
function convergence(fit: FitJson): string {
  const norm =
    fit.gradNorm === undefined ? '' : `, scaled gradient norm ${fit.gradNorm.toExponential(2)}`;
  return fit.converged
    ? `converged (${fit.stopReason ?? 'converged'}${norm}) after ${int(fit.steps)} steps`
    : `NOT converged. ${stopWords(fit)}`;
}

/** A command line that fits the same model on the same files with the same settings. */
export function reproduceCommand(ds: Dataset, fit: FitJson): string {
  const s = fit.settings;
  const name = datasetFileNamer(ds);
  const names = (items: boolean) =>
    ds.sources
      .filter((x) => (x.format === 'items') === items)
      .map((x) => name(x.file))
      .sort();
  const data = names(false);
  const items = names(true);
  const files = data.length > 8 ? [...data.slice(0, 8), `… (${data.length} files)`] : data;
  const parts = ['llm-nrm fit', ...files];
  if (items.length) parts.push(`--items ${items[0]}`);
  parts.push(
    `--model ${s.model}`,
    `--mode ${s.mode}`,
    `--optimizer ${s.optimizer}`,
    `--steps ${s.steps}`,
  );
  if (s.optimizer === 'adam') parts.push(`--lr ${s.lr}`);
  parts.push(`--seed ${s.seed}`, `--tol ${s.tol}`);
  if (s.gtol !== undefined) parts.push(`--gtol ${s.gtol}`);
  if (s.precision) parts.push(`--precision ${s.precision}`);
  if (s.curvature) parts.push(`--curvature ${s.curvature}`);
  parts.push('--out fit.json');
  return parts.join(' ');
}

function facts(fit: FitJson): string {
  const sel = fit.priorSelection;
  const rows: [string, string][] = [
    ['model', `${fit.model} (${fit.mode} mode, ${fit.optimizer} optimiser)`],
    ['fallback gate', gateWords(fit) ?? 'this model has no fallback gate'],
    ['convergence', convergence(fit)],
    [
      'objective',
      `${fmt(fit.objective, 4)} (cross-entropy ${fmt(fit.crossEntropy, 4)}, ${fmt(fit.meanCrossEntropy, 5)} per cell over ${int(fit.nCells)} cells; penalty ${fmt(fit.penalty, 4)})`,
    ],
    [
      'prior strength λ',
      sel
        ? `${fmt(sel.lambda, 3)}: ${sel.reason}`
        : fit.settings.priorStrength !== undefined
          ? `${fmt(fit.settings.priorStrength, 3)} (given)`
          : 'none (paper mode or a binary model)',
    ],
    [
      'starts of the final fit',
      sel?.starts?.length
        ? sel.starts
            .map(
              (t) =>
                `${t.start === 'open' ? 'documented (gate open)' : 'gate shut'}, w0 ${fmt(t.w0, 1)}: held-out loss ${fmt(t.heldOutLoss, 4)} per cell${t.kept ? ' (kept)' : ''}`,
            )
            .join('; ') +
          ` (each start fitted again on the search folds from the folds' own starts; the gate-open optimum is the fit only where its gain has a paired t above ${OPEN_T})`
        : 'one (the documented start)',
    ],
    [
      'priors',
      fit.priors?.length
        ? fit.priors
            .map((p) => `${p.group} sd ${fmt(p.sd, 3)}${p.learned ? '' : ' (fixed)'}`)
            .join(', ')
        : '—',
    ],
    ['standard errors', fit.seMethod ?? '—'],
    [
      'engine',
      `${fit.engine}: ${fit.engineReason}${fit.precision === 'mixed' ? ' (float32 warm-up, float64 finish)' : ''}`,
    ],
    ['time', `${fmt(fit.seconds, 1)} s, ${int(fit.passes)} passes over the data`],
    ['software', `llm-nrm workbench ${version}`],
    ['notes', fit.notes.length ? fit.notes.join(' · ') : 'none'],
  ];
  return table(
    'The fit',
    ['what', 'value'],
    rows.map(([k, v]) => [textCell(k), textCell(v)]),
    {
      className: 'facts',
    },
  );
}

function reading(fit: FitJson): string {
  const sel = fit.priorSelection;
  const lam = sel
    ? ` The prior strength λ = ${fmt(sel.lambda, 2)} was chosen by held-out loss among ${sel.trials.length} candidates.`
    : '';
  const gate = gateWords(fit);
  const conv = fit.converged
    ? `It converged in ${int(fit.steps)} steps (${fmt(fit.seconds, 1)} s on the ${fit.engine} engine), so its numbers are the optimum of its objective.`
    : `It did NOT converge. ${stopWords(fit)} Its estimates may still move; read the rest of this report with that in mind.`;
  return `The ${fit.model} model was fitted in ${fit.mode} mode with a mean cross-entropy of ${fmt(fit.meanCrossEntropy, 4)} nats per cell. ${conv}${lam}${gate ? ` ${gate}` : ''}`;
}

export function fitSection(ds: Dataset, fit: FitJson): string {
  const sel = fit.priorSelection;
  const curve =
    sel && sel.trials.length > 1
      ? figure(
          strengthCurveChart(
            sel.trials.map((t) => ({ lambda: t.lambda, loss: t.heldOutLoss })),
            sel.lambda,
          ),
          'Prior-strength search: held-out cross-entropy per cell at each candidate λ.',
        )
      : '';
  const settings = JSON.stringify(fit.settings, Object.keys(fit.settings).sort(), 1);
  const body = `${facts(fit)}\n${curve}\n<h3>Reproduce</h3>\n<p>The command (it chooses λ again by the same seeded search):</p>\n<pre><code>${esc(reproduceCommand(ds, fit))}</code></pre>\n<p>The exact settings of this fit (fit.json <code>settings</code>):</p>\n<pre><code>${esc(settings)}</code></pre>`;
  return section('fit', '2. The fit', reading(fit), body);
}
