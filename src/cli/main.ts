import '../node/tfjs';
import { DataError } from '../core/data/types';
import { UsageError } from './args';
import { loadSettings } from './io';
import { FIT_USAGE, fitCommand } from './fit';
import { INFO_USAGE, infoCommand } from './info';
import { EVALUATE_USAGE, evaluateCommand } from './evaluate';
import { BANK_USAGE, bankCommand } from './bank';
import { SCORE_USAGE, scoreCommand } from './score';
import { CAT_USAGE, catCommand, SELECT_USAGE, selectCommand } from './cat';
import { FLAGS_USAGE, flagsCommand } from './flags';
import { COMPRESS_USAGE, compressCommand } from './compress';
import { ITEMFIT_USAGE, itemfitCommand } from './itemfit';
import { COMPARE_USAGE, compareCommand } from './compare';
import {
  CLASSICAL_USAGE,
  classicalCommand,
  RELIABILITY_USAGE,
  reliabilityCommand,
} from './classical';
import { DIF_USAGE, difCommand } from './dif';
import { REPORT_USAGE, reportCommand } from './report';

const COMMANDS: Record<string, { run: (argv: string[]) => Promise<number>; usage: string }> = {
  fit: { run: fitCommand, usage: FIT_USAGE },
  info: { run: infoCommand, usage: INFO_USAGE },
  evaluate: { run: evaluateCommand, usage: EVALUATE_USAGE },
  bank: { run: bankCommand, usage: BANK_USAGE },
  score: { run: scoreCommand, usage: SCORE_USAGE },
  cat: { run: catCommand, usage: CAT_USAGE },
  select: { run: selectCommand, usage: SELECT_USAGE },
  flags: { run: flagsCommand, usage: FLAGS_USAGE },
  compress: { run: compressCommand, usage: COMPRESS_USAGE },
  itemfit: { run: itemfitCommand, usage: ITEMFIT_USAGE },
  compare: { run: compareCommand, usage: COMPARE_USAGE },
  classical: { run: classicalCommand, usage: CLASSICAL_USAGE },
  reliability: { run: reliabilityCommand, usage: RELIABILITY_USAGE },
  dif: { run: difCommand, usage: DIF_USAGE },
  report: { run: reportCommand, usage: REPORT_USAGE },
};

const GLOBAL_USAGE = `Flags for every command:
  --strict   fail on the first file that cannot be used, instead of skipping it with its reason
  --debug    print the stack trace of an error`;

const USAGE = `llm-nrm: option-level psychometrics of LLM multiple-choice benchmarks\n\n${Object.values(
  COMMANDS,
)
  .map((c) => c.usage)
  .join('\n')}\n\n${GLOBAL_USAGE}\n`;

/**
 * Entry point; returns the exit code. Every error ends in one line on stderr
 * (`llm-nrm: ...`), without a stack trace unless `--debug` is given: bad input
 * exits 1, a command-line mistake 2 (after the usage), anything else 1.
 */
export async function main(argvIn: string[]): Promise<number> {
  const debug = argvIn.includes('--debug');
  loadSettings.strict = argvIn.includes('--strict');
  const [cmd, ...rest] = argvIn.filter((a) => a !== '--debug' && a !== '--strict');
  if (!cmd || cmd === '--help' || cmd === '-h' || cmd === 'help') {
    process.stdout.write(USAGE);
    return cmd ? 0 : 2;
  }
  const c = COMMANDS[cmd];
  if (!c) {
    process.stderr.write(
      `${USAGE}\nllm-nrm: unknown command "${cmd}" (the commands are listed above)\n`,
    );
    return 2;
  }
  try {
    return await c.run(rest);
  } catch (e) {
    return reportError(e, debug);
  }
}

/** Writes an error as its one last line (the trace first, with --debug); returns the exit code. */
function reportError(e: unknown, debug: boolean): number {
  const err = e instanceof Error ? e : new Error(String(e));
  if (debug && err.stack) process.stderr.write(`${err.stack}\n`);
  if (err instanceof DataError || err.name === 'DataError') {
    // A list (every file and why) goes first, so that the last line says what happened.
    const [head, ...list] = err.message.split('\n');
    if (list.length > 0) process.stderr.write(`${list.join('\n')}\n`);
    process.stderr.write(
      `llm-nrm: invalid input: ${list.length ? `${head.replace(/:$/, '')} (listed above)` : head}\n`,
    );
    return 1;
  }
  if (err instanceof UsageError) {
    if (err.usage) process.stderr.write(`${err.usage}\n\n`);
    process.stderr.write(`llm-nrm: ${err.message}\n`);
    return 2;
  }
  const hint = debug ? '' : ' (run with --debug for the stack trace)';
  process.stderr.write(`llm-nrm: ${err.message}${hint}\n`);
  return 1;
}
