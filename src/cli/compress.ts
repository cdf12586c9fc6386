import { toCsv } from '../boundary/csv';
import { compressionCurve } from '../core/bank/compress';
import { COMPRESS_BUDGETS, COMPRESS_TAU, CURVE_MODELS, DEFAULT_MODEL } from '../core/defaults';
import { MODEL_TYPES, type ModelType } from '../core/model/types';
import { num, oneOf, parse, UsageError } from './args';
import { loadData, writeOut } from './io';

export const COMPRESS_USAGE = `llm-nrm compress DATA... [--items items.csv] [--folds 5] [--seed 1] [--models ${CURVE_MODELS.join(',')}]
                    [--budgets ${COMPRESS_BUDGETS.join(',')}] [--steps N] [--tau ${COMPRESS_TAU}] [--per-fold folds.csv] [--quiet] --out fig3a.csv`;

function list(v: string | undefined, name: string): string[] | undefined {
  if (v === undefined) return undefined;
  const out = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (out.length === 0) throw new UsageError(`--${name} expects a comma-separated list.`);
  return out;
}

/**
 * `llm-nrm compress`: the Fig. 3a compression curve. Exported so that other
 * commands (evaluate) can run it with their own argv.
 */
export async function compressCommand(argv: string[]): Promise<number> {
  const { values: v, positionals } = parse(
    argv,
    {
      items: { type: 'string' },
      folds: { type: 'string' },
      seed: { type: 'string' },
      models: { type: 'string' },
      budgets: { type: 'string' },
      steps: { type: 'string' },
      tau: { type: 'string' },
      'per-fold': { type: 'string' },
      quiet: { type: 'boolean' },
      out: { type: 'string' },
    },
    COMPRESS_USAGE,
  );
  const models = list(v.models, 'models')?.map(
    (m) => oneOf(m, 'models', MODEL_TYPES, DEFAULT_MODEL) as ModelType,
  );
  const budgets = list(v.budgets, 'budgets')?.map((b) => {
    const k = num(b, 'budgets', NaN);
    if (!(k >= 1)) throw new UsageError(`--budgets entries must be ≥ 1; got "${b}".`);
    return k;
  });
  const ds = await loadData(positionals, v.items);
  process.stderr.write(`loaded ${ds.J} LLMs × ${ds.I} items\n`);
  const tau = num(v.tau, 'tau', COMPRESS_TAU);
  const steps = v.steps === undefined ? undefined : num(v.steps, 'steps', 2500);
  const folds = num(v.folds, 'folds', 5);
  if (!Number.isInteger(folds) || folds < 2 || ds.J < 2 * folds)
    throw new UsageError(
      `--folds ${folds}: need a whole number ≥ 2 with at least 2 held-out LLMs per fold (${ds.J} LLMs loaded).`,
    );
  const res = await compressionCurve(ds, {
    folds,
    seed: num(v.seed, 'seed', 1),
    models,
    budgets,
    tauTarget: tau,
    fitSettings: steps === undefined ? {} : { steps },
    onProgress: v.quiet
      ? undefined
      : (p) => process.stderr.write(`\r[${p.done}/${p.total}] ${p.stage}`.padEnd(90)),
  });
  if (!v.quiet) process.stderr.write('\n');
  await writeOut(v.out, toCsv(res.rows));
  if (v['per-fold']) await writeOut(v['per-fold'], toCsv(res.perFold));
  for (const [model, k] of Object.entries(res.smallestK))
    process.stderr.write(
      `${model}: smallest k with τ ≥ ${tau}: ${k ?? 'none'} (mean over folds), ${res.smallestKPooled[model] ?? 'none'} (pooled)\n`,
    );
  return 0;
}
