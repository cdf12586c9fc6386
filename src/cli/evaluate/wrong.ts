import { DEFAULT_MODEL } from '../../core/defaults';
import { wrongOnly } from '../../core/eval/wrong';
import { MODEL_TYPES, type Channel } from '../../core/model/types';
import { num, oneOf, parse } from '../args';
import { fitSettingsFromFlags } from '../fitFlags';
import { writeOut } from '../io';
import { EVALUATE_USAGE, FIT_OPTIONS, listOf, runContext, loadFor, csv, fmt } from './shared';

/** `llm-nrm evaluate wrong`: Table 3: θ of held-out LLMs from correctness alone vs wrong answers alone. */
export async function wrongCommand(argv: string[]): Promise<number> {
  const { values: v, positionals } = parse(
    argv,
    {
      ...FIT_OPTIONS,
      model: { type: 'string' },
      folds: { type: 'string' },
      channels: { type: 'string' },
      llms: { type: 'string' },
    },
    EVALUATE_USAGE,
  );
  const seed = num(v.seed, 'seed', 1);
  const model = oneOf(v.model, 'model', MODEL_TYPES, DEFAULT_MODEL);
  const channels = listOf<Channel>(
    v.channels,
    'channels',
    ['binary', 'wrong', 'option'],
    ['binary', 'wrong'],
  );
  const folds = num(v.folds, 'folds', 5);
  const fitSettings = fitSettingsFromFlags(v, seed);
  const ds = await loadFor(v, positionals);
  const ctx = runContext(v);
  try {
    const r = await wrongOnly(ds, { ...ctx, model, folds, seed, channels, fitSettings });
    ctx.finish();
    await writeOut(v.out, csv(r.rows));
    if (v.llms)
      await writeOut(
        v.llms,
        csv(
          r.llms.map((l) => ({
            llm: l.llm,
            fold: l.fold,
            nWrong: l.nWrong,
            thetaRef: l.thetaRef,
            ...Object.fromEntries(channels.map((c) => [`theta_${c}`, l.theta[c]])),
          })),
        ),
      );
    for (const row of r.rows)
      process.stderr.write(
        `${row.scenario.padEnd(7)} Spearman ${fmt(row.spearman_mean, 3)}±${fmt(row.spearman_sd, 3)}  Pearson ${fmt(row.pearson_mean, 3)}±${fmt(row.pearson_sd, 3)}  pooled ${fmt(row.spearman_pooled, 3)}/${fmt(row.pearson_pooled, 3)}\n`,
      );
  } finally {
    ctx.finish();
  }
  return 0;
}
