import { CALIBRATE_DEFAULTS, CALIBRATE_SIZES, CURVE_MODELS } from '../../core/defaults';
import { calibrationCurve } from '../../core/eval/calibrate';
import { MODEL_TYPES, type ModelType } from '../../core/model/types';
import { num, oneOf, parse, UsageError } from '../args';
import { fitSettingsFromFlags } from '../fitFlags';
import { writeOut } from '../io';
import { EVALUATE_USAGE, FIT_OPTIONS, listOf, runContext, loadFor, csv, fmt } from './shared';

/** `llm-nrm evaluate calibrate`: Fig. 3b: how well a bank calibrated on n LLMs predicts new ones. */
export async function calibrateCommand(argv: string[]): Promise<number> {
  const { values: v, positionals } = parse(
    argv,
    {
      ...FIT_OPTIONS,
      models: { type: 'string' },
      sizes: { type: 'string' },
      draws: { type: 'string' },
      'held-out': { type: 'string' },
      'score-channel': { type: 'string' },
      'per-draw': { type: 'string' },
    },
    EVALUATE_USAGE,
  );
  const seed = num(v.seed, 'seed', CALIBRATE_DEFAULTS.seed);
  const models: ModelType[] = listOf(v.models, 'models', MODEL_TYPES, CURVE_MODELS);
  const sizes =
    v.sizes === undefined
      ? [...CALIBRATE_SIZES]
      : v.sizes.split(',').map((x) => {
          const t = x.trim();
          if (t === 'all') return Infinity;
          const n = Number(t);
          if (!Number.isInteger(n) || n < 2)
            throw new UsageError(`--sizes: "${t}" is not an integer ≥ 2 or "all".`);
          return n;
        });
  const heldOut = num(v['held-out'], 'held-out', CALIBRATE_DEFAULTS.heldOut);
  if (!(heldOut > 0 && heldOut < 1)) throw new UsageError('--held-out must be a share in (0, 1).');
  const scoreChannel = oneOf(
    v['score-channel'],
    'score-channel',
    ['option', 'binary'] as const,
    CALIBRATE_DEFAULTS.scoreChannel,
  );
  const fitSettings = fitSettingsFromFlags(v, seed);
  const ds = await loadFor(v, positionals);
  const ctx = runContext(v);
  try {
    const r = await calibrationCurve(ds, {
      ...ctx,
      models,
      sizes,
      draws: num(v.draws, 'draws', CALIBRATE_DEFAULTS.draws),
      heldOut,
      seed,
      scoreChannel,
      fitSettings,
    });
    ctx.finish();
    await writeOut(v.out, csv(r.rows));
    if (v['per-draw']) await writeOut(v['per-draw'], csv(r.perDraw));
    for (const row of r.rows)
      process.stderr.write(
        `${String(row.model).padEnd(10)} n ${String(row.sizeLabel).padEnd(8)} binary log-loss ${fmt(row.binaryLogLoss_mean as number)}±${fmt(row.binaryLogLoss_sd as number)}  Brier ${fmt(row.binaryBrier_mean as number)}\n`,
      );
  } finally {
    ctx.finish();
  }
  return 0;
}
