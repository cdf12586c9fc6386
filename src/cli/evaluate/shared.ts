/** What the `llm-nrm evaluate` subcommands share: usage, fit flags, progress, loading, output. */
import type { EngineHandle } from '../../core/fit/engineHandle';
import { toCsv } from '../../boundary/csv';
import type { EvalProgress, EvalRunOptions } from '../../core/eval/common';
import { oneOf, UsageError } from '../args';
import { CLI_ENGINES, cliEngine } from '../fit';
import { COMPRESS_USAGE } from '../compress';
import { FIT_FLAG_OPTIONS, FIT_FLAG_USAGE } from '../fitFlags';
import { loadData } from '../io';

const FIT_FLAGS = `${FIT_FLAG_USAGE} [--engine E] [--quiet]`;

export const EVALUATE_USAGE = `llm-nrm evaluate cv DATA... [--items f] [--models llmnrm,nrm-soft,2pl] [--folds 5] [--seed S]
                    ${FIT_FLAGS} [--jobs N] [--per-fold folds.csv] --out cv.csv
llm-nrm evaluate external fit.json... scores.csv [--map map.csv] [--score-column C] [--name-column C]
                    [--bootstrap 1000] [--seed S] [--matches matches.csv] [--out ext.csv]
llm-nrm evaluate wrong DATA... [--items f] [--model llmnrm] [--folds 5] [--seed S] [--channels binary,wrong]
                    ${FIT_FLAGS} [--llms llms.csv] --out t3.csv
llm-nrm evaluate info fit.json [--out fig2.csv]
llm-nrm evaluate calibrate DATA... [--items f] [--models llmnrm,nrm-soft,2pl] [--sizes 5,10,20,40,all]
                    [--draws 3] [--held-out 0.25] [--score-channel option|binary] [--seed S]
                    ${FIT_FLAGS} [--per-draw draws.csv] --out fig3b.csv
${COMPRESS_USAGE.replace('llm-nrm compress', 'llm-nrm evaluate compress')}`;

/** The fit flags every subcommand that fits takes. */
export const FIT_OPTIONS = {
  ...FIT_FLAG_OPTIONS,
  engine: { type: 'string' },
  quiet: { type: 'boolean' },
  items: { type: 'string' },
  values: { type: 'string' },
  seed: { type: 'string' },
  out: { type: 'string' },
} as const;

export type FitFlagValues = {
  [K in keyof typeof FIT_OPTIONS]?: (typeof FIT_OPTIONS)[K]['type'] extends 'boolean'
    ? boolean
    : string;
};

/** A comma-separated list of names from `allowed` (`dflt` when the flag is absent). */
export function listOf<T extends string>(
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
export function runContext(
  v: FitFlagValues,
): EvalRunOptions & { engine: EngineHandle; finish(): void } {
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

/** The data set named by the positionals (and --items, --values), with a line on stderr. */
export async function loadFor(v: FitFlagValues, positionals: string[]) {
  const valueKind = v.values
    ? oneOf(v.values, 'values', ['prob', 'weight', 'logprob'] as const, 'prob')
    : undefined;
  const ds = await loadData(positionals, v.items, valueKind);
  process.stderr.write(`loaded ${ds.J} LLMs × ${ds.I} items (Kmax ${ds.Kmax})\n`);
  return ds;
}

export const csv = (rows: object[]) => toCsv(rows);
export const fmt = (x: number, d = 4) => (Number.isFinite(x) ? x.toFixed(d) : 'NaN');
