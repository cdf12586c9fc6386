/**
 * `llm-nrm report`: the benchmark audit report, one self-contained HTML file
 * (src/report). Without --fit the default model is fitted first.
 */
import { readFile } from 'node:fs/promises';
import { CV_MODELS } from '../core/defaults';
import type { Dataset } from '../core/data/types';
import { crossValidate, type CrossValidateResult } from '../core/eval/cv';
import { fitDataset } from '../core/fit/fit';
import { DEFAULT_SETTINGS, type FitJson } from '../core/fit/types';
import { groupsOf, parseGroups } from '../core/psych/groups';
import { MODEL_TYPES, type ModelType } from '../core/model/types';
import { buildReport } from '../report/build';
import type { ReportInput } from '../report/types';
import { num, parse, UsageError } from './args';
import { cvPool } from './cvPool';
import { cliEngine, convergenceLine } from './fit';
import { loadData, readFit, writeOut } from './io';

export const REPORT_USAGE = `llm-nrm report DATA... [--items items.csv] [--fit fit.json] [--groups groups.csv] [--with-cv [--folds 5] [--cv-models llmnrm,2pl,...]] [--budgets 41,100] --out report.html
                    one self-contained HTML file (inline SVG and CSS, no script); without --fit the default model is fitted first`;

/** The report of `input`, dated `date`: what the command writes (the tests call it as the command does). */
export function reportHtml(input: ReportInput, date: string, budgets?: number[]): Promise<string> {
  let last = -1;
  return buildReport(input, {
    date,
    budgets,
    onProgress: (p) => {
      if (p.done === last) return;
      last = p.done;
      process.stderr.write(`\rreport [${p.done}/${p.total}] ${p.stage}`.padEnd(60));
    },
  }).finally(() => process.stderr.write('\n'));
}

/** The default fit of `ds`, with its progress line, as `llm-nrm fit` makes it. */
async function defaultFit(ds: Dataset): Promise<FitJson> {
  const engine = cliEngine('auto');
  process.stderr.write(
    `no --fit given: fitting ${DEFAULT_SETTINGS.model} (engine ${engine.name})\n`,
  );
  const fit = await fitDataset(ds, DEFAULT_SETTINGS, {
    engine,
    onProgress: (p) =>
      process.stderr.write(
        `\rstep ${p.step}/${p.maxSteps}  objective ${p.objective.toFixed(4)}  ${(p.elapsedMs / 1000).toFixed(1)} s${p.phase ? `  (${p.phase})` : ''}   `,
      ),
  });
  process.stderr.write(`\n${convergenceLine(fit)}\n`);
  return fit;
}

async function heldOut(
  ds: Dataset,
  folds: number,
  models: readonly ModelType[],
): Promise<CrossValidateResult> {
  const engine = cliEngine('auto');
  const pool = cvPool(ds, engine);
  return crossValidate(ds, {
    models,
    folds,
    seed: 1,
    engine,
    ...pool.options,
    onProgress: (p) => process.stderr.write(`\rcv [${p.done}/${p.total}] ${p.stage}`.padEnd(70)),
  }).finally(async () => {
    process.stderr.write('\n');
    await pool.close();
  });
}

/** --cv-models: model names separated by commas (default every model, as evaluate cv). */
function cvModels(v: string | undefined): readonly ModelType[] {
  if (v === undefined) return CV_MODELS;
  const ms = v.split(',').map((x) => x.trim());
  for (const m of ms)
    if (!(MODEL_TYPES as readonly string[]).includes(m))
      throw new UsageError(`--cv-models: "${m}" is not one of ${MODEL_TYPES.join(', ')}.`);
  return ms as ModelType[];
}

function budgetsOf(v: string | undefined): number[] | undefined {
  if (v === undefined) return undefined;
  const ks = v.split(',').map((x) => Number(x.trim()));
  if (ks.length === 0 || !ks.every((k) => Number.isInteger(k) && k >= 2))
    throw new UsageError(
      `--budgets expects whole numbers ≥ 2 separated by commas (e.g. 41,100); got "${v}".`,
    );
  return ks;
}

export async function reportCommand(argv: string[]): Promise<number> {
  const { values: v, positionals } = parse(
    argv,
    {
      items: { type: 'string' },
      fit: { type: 'string' },
      groups: { type: 'string' },
      'with-cv': { type: 'boolean' },
      folds: { type: 'string' },
      'cv-models': { type: 'string' },
      budgets: { type: 'string' },
      out: { type: 'string' },
    },
    REPORT_USAGE,
  );
  if (!v.out) throw new UsageError(`report needs --out report.html.\n\n${REPORT_USAGE}`);
  const budgets = budgetsOf(v.budgets);
  const folds = num(v.folds, 'folds', 5);
  const models = cvModels(v['cv-models']);
  if (!Number.isInteger(folds) || folds < 2)
    throw new UsageError('--folds must be an integer ≥ 2.');
  const ds = await loadData(positionals, v.items);
  process.stderr.write(`loaded ${ds.J} LLMs × ${ds.I} items (Kmax ${ds.Kmax})\n`);
  const fit = v.fit ? await readFit(v.fit) : await defaultFit(ds);
  let groups: ReportInput['groups'];
  if (v.groups) {
    groups = groupsOf(ds.llmIds, parseGroups(await readFile(v.groups, 'utf8'), v.groups));
    if (groups.names.length < 2)
      throw new UsageError(`${v.groups}: fewer than two of its groups have LLMs in the data.`);
  }
  const cv = v['with-cv'] ? await heldOut(ds, folds, models) : undefined;
  const t0 = performance.now();
  let html: string;
  try {
    html = await reportHtml({ ds, fit, cv, groups }, new Date().toISOString(), budgets);
  } catch (e) {
    if (v.fit && /not of this data set/.test((e as Error).message))
      throw new UsageError(`${v.fit}: ${(e as Error).message}`);
    throw e;
  }
  await writeOut(v.out, html);
  process.stderr.write(
    `${v.out}: ${(Buffer.byteLength(html) / 1024).toFixed(0)} KiB in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
  );
  return 0;
}
