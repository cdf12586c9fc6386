import { CV_MODELS } from '../../core/defaults';
import { crossValidate } from '../../core/eval/cv';
import { MODEL_TYPES } from '../../core/model/types';
import { num, parse, UsageError } from '../args';
import { fitSettingsFromFlags } from '../fitFlags';
import { writeOut } from '../io';
import { EVALUATE_USAGE, FIT_OPTIONS, listOf, runContext, loadFor, csv, fmt } from './shared';
import { cvPool } from '../cvPool';

/** `llm-nrm evaluate cv`: Table 1: cross-validated prediction metrics of each model. */
export async function cvCommand(argv: string[]): Promise<number> {
  const { values: v, positionals } = parse(
    argv,
    {
      ...FIT_OPTIONS,
      models: { type: 'string' },
      folds: { type: 'string' },
      'per-fold': { type: 'string' },
      jobs: { type: 'string' },
    },
    EVALUATE_USAGE,
  );
  const seed = num(v.seed, 'seed', 1);
  const models = listOf(v.models, 'models', MODEL_TYPES, CV_MODELS);
  const folds = num(v.folds, 'folds', 5);
  if (!Number.isInteger(folds) || folds < 2)
    throw new UsageError('--folds must be an integer ≥ 2.');
  const fitSettings = fitSettingsFromFlags(v, seed);
  const ds = await loadFor(v, positionals);
  const ctx = runContext(v);
  const pool = cvPool(ds, ctx.engine, v.jobs === undefined ? undefined : num(v.jobs, 'jobs', 1));
  try {
    const r = await crossValidate(ds, {
      ...ctx,
      models,
      folds,
      seed,
      fitSettings,
      ...pool.options,
    });
    ctx.finish();
    await writeOut(v.out, csv(r.summary));
    if (v['per-fold']) await writeOut(v['per-fold'], csv(r.perFold));
    for (const s of r.summary)
      process.stderr.write(
        `${String(s.model).padEnd(13)} option acc ${fmt(s.optionAcc_mean as number)}±${fmt(s.optionAcc_sd as number)}  LL ${fmt(s.optionLogLoss_mean as number)}  ` +
          `binary acc ${fmt(s.binaryAcc_mean as number)}  LL ${fmt(s.binaryLogLoss_mean as number)}  Brier ${fmt(s.binaryBrier_mean as number)}\n`,
      );
  } finally {
    ctx.finish();
    await pool.close();
  }
  return 0;
}
