import { resolveEngine, createEngine } from '../core/engines/select';
import os from 'node:os';
import { threadsFor } from '../core/engines/parallel/engine';
import { createNodeParallelEngine } from '../node/parallel';
import type { EngineChoice, Problem } from '../core/engines/types';
import type { EngineHandle } from '../core/fit/fit';
import { fitDataset } from '../core/fit/fit';
import {
  DEFAULT_SETTINGS,
  type FitJson,
  type FitProgress,
  type FitSettings,
} from '../core/fit/types';
import { MODEL_TYPES } from '../core/model/types';
import { num, oneOf, parse, UsageError } from './args';
import { FIT_FLAG_OPTIONS, FIT_FLAG_USAGE, fitSettingsFromFlags } from './fitFlags';
import { gateWords } from '../core/model/gate';
import { continuingCannotHelp, stopWords } from '../core/fit/stopWords';
import { loadData, writeOut } from './io';

export const FIT_USAGE = `llm-nrm fit DATA... [--items items.csv] [--model ${MODEL_TYPES.join('|')}]
                    ${FIT_FLAG_USAGE} [--seed S]
                    [--engine auto|wasm|fused|tfjs-wasm|tfjs-cpu] [--values prob|weight|logprob] [--sample FRACTION] [--threads N] --out fit.json`;

/** Engines that run under Node (the GPU ones need a browser). */
export const CLI_ENGINES = [
  'auto',
  'wasm',
  'fused',
  'tfjs-wasm',
  'tfjs-cpu',
] as const satisfies readonly EngineChoice[];

/**
 * Resolve the engine for the CLI: Node has no GPU, so auto means the CPU
 * engine (wasm). The wasm and fused engines spread over `threads` worker
 * threads (default: the cores, up to 8) when there are enough cells to pay for
 * the messaging.
 */
export function cliEngine(choice: EngineChoice, threads?: number): EngineHandle {
  const r = resolveEngine(choice, { inNode: true, webgpuAdapter: null, webgl2: null });
  return {
    ...r,
    create: (p: Problem) => {
      const t = threadsFor(p.cells.n, os.availableParallelism(), threads);
      return (r.name === 'fused' || r.name === 'wasm') && t > 1
        ? createNodeParallelEngine(p, t, r.name)
        : createEngine(p, r.name);
    },
  };
}

export async function fitCommand(argv: string[]): Promise<number> {
  const { values: v, positionals } = parse(
    argv,
    {
      items: { type: 'string' },
      model: { type: 'string' },
      ...FIT_FLAG_OPTIONS,
      seed: { type: 'string' },
      engine: { type: 'string' },
      values: { type: 'string' },
      sample: { type: 'string' },
      threads: { type: 'string' },
      out: { type: 'string' },
      quiet: { type: 'boolean' },
    },
    FIT_USAGE,
  );
  const seed = num(v.seed, 'seed', 1);
  const settings: FitSettings = {
    ...DEFAULT_SETTINGS,
    ...fitSettingsFromFlags(v, seed),
    model: oneOf(v.model, 'model', MODEL_TYPES, 'llmnrm'),
    engine: oneOf(v.engine, 'engine', CLI_ENGINES, 'auto'),
  };
  const valueKind = v.values
    ? oneOf(v.values, 'values', ['prob', 'weight', 'logprob'] as const, 'prob')
    : undefined;
  const sample = v.sample === undefined ? undefined : num(v.sample, 'sample', 1);
  const ds = await loadData(positionals, v.items, valueKind, sample);
  process.stderr.write(`loaded ${ds.J} LLMs × ${ds.I} items (Kmax ${ds.Kmax})\n`);
  if (settings.mode === 'default' && ds.J < 2)
    throw new UsageError(
      `only ${ds.J} LLM was loaded (${ds.llmIds.map((m) => `'${m}'`).join(', ')}): the default mode ` +
        "standardises θ over LLMs and needs at least 2; add other models' files, or fit one LLM " +
        'with --mode paper',
    );
  const engine = cliEngine(
    settings.engine,
    v.threads === undefined ? undefined : num(v.threads, 'threads', 1),
  );
  process.stderr.write(`engine: ${engine.name} (${engine.reason})\n`);
  const fit = await fitDataset(ds, settings, {
    engine,
    onProgress: v.quiet
      ? undefined
      : (p) => process.stderr.write(`\r${progressLine(p)}`.padEnd(100)),
  });
  if (!v.quiet) process.stderr.write('\n');
  for (const n of fit.notes) process.stderr.write(`note: ${n}\n`);
  process.stderr.write(
    `objective ${fit.objective.toFixed(4)}  cross-entropy ${fit.crossEntropy.toFixed(4)} (${fit.meanCrossEntropy.toFixed(5)}/cell)  penalty ${fit.penalty.toFixed(4)}  ${fit.steps} steps  ${fit.seconds.toFixed(2)} s\n`,
  );
  process.stderr.write(`${convergenceLine(fit)}\n`);
  const gate = gateWords(fit);
  if (gate) process.stderr.write(`${gate}\n`);
  if (fit.priors?.length)
    process.stderr.write(
      `priors: ${fit.priors.map((p) => `${p.group} sd ${p.sd.toPrecision(3)}${p.learned ? '' : ' (fixed)'}`).join(', ')}\n`,
    );
  await writeOut(v.out, JSON.stringify(fit, null, 1) + '\n');
  return 0;
}

/**
 * The progress line: the main fit's step of its cap; a phase before it (the
 * prior-strength search's own sub-fits, the curvature passes) by name, with its
 * own step count and no cap, which is the main fit's and not theirs.
 */
export function progressLine(p: FitProgress): string {
  const at = p.phase ? `${p.phase}: step ${p.step}` : `step ${p.step}/${p.maxSteps}`;
  const objective = Number.isFinite(p.objective) ? `  objective ${p.objective.toFixed(4)}` : '';
  return `${at}${objective}  ${(p.elapsedMs / 1000).toFixed(1)} s`;
}

/** One line on whether the fit converged and why it stopped. */
export function convergenceLine(fit: FitJson): string {
  const norm = fit.gradNorm === undefined ? '' : `, gradient norm ${fit.gradNorm.toExponential(2)}`;
  if (fit.converged) return `converged (${fit.stopReason}${norm}) after ${fit.steps} steps`;
  const next = continuingCannotHelp(fit) ? '' : ' Rerun with a larger --steps to continue.';
  return `NOT CONVERGED: ${stopWords(fit)}${next}`;
}
