/**
 * `llm-nrm evaluate`: the paper's evaluation runs from the command line, writing
 * the same numbers as the core functions return (CSV). Subcommands: cv
 * (Table 1), external (Table 2), wrong (Table 3), info (Fig. 2a/2b), calibrate
 * (Fig. 3b).
 */
import { readFile } from 'node:fs/promises';
import { toCsv } from '../boundary/csv';
import {
  CALIBRATE_DEFAULTS,
  CALIBRATE_SIZES,
  CURVE_MODELS,
  CV_MODELS,
  DEFAULT_MODEL,
} from '../core/defaults';
import { calibrationCurve } from '../core/eval/calibrate';
import type { EvalProgress, EvalRunOptions } from '../core/eval/common';
import { crossValidate } from '../core/eval/cv';
import { externalValidity, parseNameMap, parseScores } from '../core/eval/external';
import { infoByBenchmark } from '../core/eval/info';
import { matchNames } from '../core/eval/names';
import { wrongOnly } from '../core/eval/wrong';
import { MODEL_TYPES, type Channel, type ModelType } from '../core/model/types';
import { num, oneOf, parse, UsageError } from './args';
import { CLI_ENGINES, cliEngine } from './fit';
import { COMPRESS_USAGE, compressCommand } from './compress';
import { FIT_FLAG_OPTIONS, FIT_FLAG_USAGE, fitSettingsFromFlags } from './fitFlags';
import { loadData, readFit, writeOut } from './io';

const FIT_FLAGS = `${FIT_FLAG_USAGE} [--engine E] [--quiet]`;

export const EVALUATE_USAGE = `llm-nrm evaluate cv DATA... [--items f] [--models llmnrm,nrm-soft,2pl] [--folds 5] [--seed S]
                    ${FIT_FLAGS} [--per-fold folds.csv] --out cv.csv
llm-nrm evaluate external fit.json... scores.csv [--map map.csv] [--score-column C] [--name-column C]
                    [--bootstrap 1000] [--seed S] [--matches matches.csv] [--out ext.csv]
llm-nrm evaluate wrong DATA... [--items f] [--model llmnrm] [--folds 5] [--seed S] [--channels binary,wrong]
                    ${FIT_FLAGS} [--llms llms.csv] --out t3.csv
llm-nrm evaluate info fit.json [--out fig2.csv]
llm-nrm evaluate calibrate DATA... [--items f] [--models llmnrm,nrm-soft,2pl] [--sizes 5,10,20,40,all]
                    [--draws 3] [--held-out 0.25] [--score-channel option|binary] [--seed S]
                    ${FIT_FLAGS} [--per-draw draws.csv] --out fig3b.csv
${COMPRESS_USAGE.replace('llm-nrm compress', 'llm-nrm evaluate compress')}`;

const FIT_OPTIONS = {
  ...FIT_FLAG_OPTIONS,
  engine: { type: 'string' },
  quiet: { type: 'boolean' },
  items: { type: 'string' },
  values: { type: 'string' },
  seed: { type: 'string' },
  out: { type: 'string' },
} as const;

type FitFlagValues = {
  [K in keyof typeof FIT_OPTIONS]?: (typeof FIT_OPTIONS)[K]['type'] extends 'boolean'
    ? boolean
    : string;
};

function listOf<T extends string>(
  v: string | undefined,
  name: string,
  allowed: readonly T[],
  dflt: readonly T[],
): T[] {
  if (v === undefined) return [...dflt];
  const out = v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  for (const x of out)
    if (!(allowed as readonly string[]).includes(x))
      throw new UsageError(`--${name}: "${x}" is not one of ${allowed.join(', ')}.`);
  if (out.length === 0) throw new UsageError(`--${name} is empty.`);
  return out as T[];
}

/** Progress on stderr, cancellation on Ctrl-C. */
function runContext(v: FitFlagValues): EvalRunOptions & { finish(): void } {
  const ac = new AbortController();
  const onSigint = () => ac.abort();
  process.once('SIGINT', onSigint);
  let last = 0;
  let finished = false;
  const onProgress = v.quiet
    ? undefined
    : (p: EvalProgress) => {
        const now = Date.now();
        if (p.fit && now - last < 200) return;
        last = now;
        const fit = p.fit ? `  step ${p.fit.step}` : '';
        process.stderr.write(`\r[${p.done}/${p.total}] ${p.stage}${fit}`.padEnd(78) + ' ');
      };
  const engineChoice = oneOf(v.engine, 'engine', CLI_ENGINES, 'auto');
  return {
    onProgress,
    signal: ac.signal,
    engine: cliEngine(engineChoice),
    finish() {
      if (finished) return;
      finished = true;
      process.off('SIGINT', onSigint);
      if (!v.quiet) process.stderr.write('\n');
    },
  };
}

async function loadFor(v: FitFlagValues, positionals: string[]) {
  const valueKind = v.values
    ? oneOf(v.values, 'values', ['prob', 'weight', 'logprob'] as const, 'prob')
    : undefined;
  const ds = await loadData(positionals, v.items, valueKind);
  process.stderr.write(`loaded ${ds.J} LLMs × ${ds.I} items (Kmax ${ds.Kmax})\n`);
  return ds;
}

const csv = (rows: object[]) => toCsv(rows);
const fmt = (x: number, d = 4) => (Number.isFinite(x) ? x.toFixed(d) : 'NaN');

async function cvCommand(argv: string[]): Promise<number> {
  const { values: v, positionals } = parse(
    argv,
    {
      ...FIT_OPTIONS,
      models: { type: 'string' },
      folds: { type: 'string' },
      'per-fold': { type: 'string' },
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
  try {
    const r = await crossValidate(ds, { ...ctx, models, folds, seed, fitSettings });
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
  }
  return 0;
}

async function externalCommand(argv: string[]): Promise<number> {
  const { values: v, positionals } = parse(
    argv,
    {
      map: { type: 'string' },
      'score-column': { type: 'string' },
      'name-column': { type: 'string' },
      bootstrap: { type: 'string' },
      seed: { type: 'string' },
      matches: { type: 'string' },
      out: { type: 'string' },
    },
    EVALUATE_USAGE,
  );
  if (positionals.length < 2)
    throw new UsageError(`Give one or more fit.json files and a scores CSV.\n\n${EVALUATE_USAGE}`);
  const scoresPath = positionals[positionals.length - 1];
  const fits = await Promise.all(positionals.slice(0, -1).map(readFit));
  let scores;
  let map: Map<string, string> | undefined;
  try {
    scores = parseScores(await readFile(scoresPath, 'utf8'), {
      scoreColumn: v['score-column'],
      nameColumn: v['name-column'],
      file: scoresPath,
    });
    if (v.map) map = parseNameMap(await readFile(v.map, 'utf8'), v.map);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const matching = matchNames(
    fits[0].llms.map((l) => l.id),
    scores.map((s) => s.name),
    map,
  );
  process.stderr.write(`matched ${matching.matches.length} of ${fits[0].llms.length} LLMs\n`);
  for (const m of matching.matches)
    process.stderr.write(`  ${m.ours} → ${m.theirs} (${m.how}${m.via ? ` via ${m.via}` : ''})\n`);
  if (matching.unmatchedOurs.length)
    process.stderr.write(`unmatched: ${matching.unmatchedOurs.join(', ')}\n`);
  if (v.matches)
    await writeOut(
      v.matches,
      csv([
        ...matching.matches.map((m) => ({
          ours: m.ours,
          theirs: m.theirs,
          how: m.how,
          via: m.via ?? '',
        })),
        ...matching.unmatchedOurs.map((o) => ({ ours: o, theirs: '', how: 'unmatched', via: '' })),
      ]),
    );
  const { rows } = externalValidity(fits, scores, matching.matches, {
    bootstrap: num(v.bootstrap, 'bootstrap', 1000),
    seed: num(v.seed, 'seed', 1),
  });
  await writeOut(v.out, csv(rows));
  for (const r of rows)
    process.stderr.write(
      `${r.measure === 'theta' ? `θ ${r.model}` : 'raw accuracy'}: Spearman ${fmt(r.spearman, 3)} ± ${fmt(r.bootSd, 3)} (n ${r.n})\n`,
    );
  return 0;
}

async function wrongCommand(argv: string[]): Promise<number> {
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

async function infoCommand(argv: string[]): Promise<number> {
  const { values: v, positionals } = parse(argv, { out: { type: 'string' } }, EVALUATE_USAGE);
  if (positionals.length !== 1)
    throw new UsageError(`Give exactly one fit.json.\n\n${EVALUATE_USAGE}`);
  const rows = infoByBenchmark(await readFit(positionals[0]));
  await writeOut(v.out, csv(rows));
  for (const r of rows)
    process.stderr.write(
      `${r.benchmark.padEnd(20)} ${String(r.items).padStart(5)} items  I_binary ${fmt(r.infoBinary)}  I_wrong ${fmt(r.infoWrong)}  +${fmt(r.gainPct, 1)}%  informative distractors ${fmt(r.informativeDistractors, 2)}\n`,
    );
  return 0;
}

async function calibrateCommand(argv: string[]): Promise<number> {
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

const SUBCOMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  cv: cvCommand,
  external: externalCommand,
  wrong: wrongCommand,
  info: infoCommand,
  calibrate: calibrateCommand,
  compress: compressCommand,
};

export async function evaluateCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const run = sub ? SUBCOMMANDS[sub] : undefined;
  if (!run)
    throw new UsageError(
      `${sub ? `unknown evaluate subcommand "${sub}"` : 'evaluate needs a subcommand'} (${Object.keys(SUBCOMMANDS).join(', ')}).\n\n${EVALUATE_USAGE}`,
    );
  return run(rest);
}
