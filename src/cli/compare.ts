/** `llm-nrm compare`: logLik, nPar, AIC, BIC and held-out log-loss of several models on one data set. */
import { toCsv } from '../boundary/csv';
import { CV_MODELS } from '../core/defaults';
import { COMPARE_COLUMNS, compareModels } from '../core/psych/compare';
import { MODEL_TYPES, type ModelType } from '../core/model/types';
import { num, oneOf, parse, UsageError } from './args';
import { CLI_ENGINES, cliEngine } from './fit';
import { FIT_FLAG_OPTIONS, FIT_FLAG_USAGE, fitSettingsFromFlags } from './fitFlags';
import { loadData, writeOut } from './io';

export const COMPARE_USAGE = `llm-nrm compare DATA... [--items f] [--models ${CV_MODELS.join(',')}] [--folds 5] [--seed S]
                    ${FIT_FLAG_USAGE} [--engine E] [--quiet] --out compare.csv
                    each cell is one multinomial draw from its observed distribution; held-out log-loss is the primary criterion`;

/** The comma-separated model list of --models. */
export function modelList(v: string | undefined): ModelType[] {
  if (v === undefined) return [...CV_MODELS];
  const out = v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  for (const m of out)
    if (!(MODEL_TYPES as readonly string[]).includes(m))
      throw new UsageError(`--models: "${m}" is not one of ${MODEL_TYPES.join(', ')}.`);
  if (out.length === 0) throw new UsageError('--models is empty.');
  return out as ModelType[];
}

export async function compareCommand(argv: string[]): Promise<number> {
  const { values: v, positionals } = parse(
    argv,
    {
      ...FIT_FLAG_OPTIONS,
      items: { type: 'string' },
      models: { type: 'string' },
      folds: { type: 'string' },
      seed: { type: 'string' },
      engine: { type: 'string' },
      quiet: { type: 'boolean' },
      out: { type: 'string' },
    },
    COMPARE_USAGE,
  );
  const models = modelList(v.models);
  const seed = num(v.seed, 'seed', 1);
  const ds = await loadData(positionals, v.items);
  process.stderr.write(`loaded ${ds.J} LLMs × ${ds.I} items (Kmax ${ds.Kmax})\n`);
  const ac = new AbortController();
  const onSigint = () => ac.abort();
  process.once('SIGINT', onSigint);
  let last = 0;
  try {
    const res = await compareModels(ds, {
      models,
      folds: num(v.folds, 'folds', 5),
      seed,
      fitSettings: fitSettingsFromFlags(v, seed),
      engine: cliEngine(oneOf(v.engine, 'engine', CLI_ENGINES, 'auto')),
      signal: ac.signal,
      onProgress: v.quiet
        ? undefined
        : (p) => {
            if (p.fit && Date.now() - last < 200) return;
            last = Date.now();
            process.stderr.write(`\r${p.stage}${p.fit ? `  step ${p.fit.step}` : ''}`.padEnd(78));
          },
    });
    if (!v.quiet) process.stderr.write('\n');
    await writeOut(v.out, toCsv(res.rows, COMPARE_COLUMNS));
    const best = res.rows.reduce((a, b) => (b.heldOutLogLoss < a.heldOutLogLoss ? b : a));
    const bic = res.rows.reduce((a, b) => (b.BIC < a.BIC ? b : a));
    process.stderr.write(
      `lowest held-out log-loss (${res.folds}-fold CV, the primary criterion): ${best.model}; lowest BIC: ${bic.model}\n`,
    );
    return 0;
  } finally {
    process.off('SIGINT', onSigint);
  }
}
