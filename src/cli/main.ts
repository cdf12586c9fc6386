import { DataError } from '../core/data/types';
import { UsageError } from './args';
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
};

const USAGE = `llm-nrm: option-level psychometrics of LLM multiple-choice benchmarks\n\n${Object.values(
  COMMANDS,
)
  .map((c) => c.usage)
  .join('\n')}\n`;

/** Entry point; returns the exit code. Bad input prints the validation message and exits non-zero. */
export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (!cmd || cmd === '--help' || cmd === '-h' || cmd === 'help') {
    process.stdout.write(USAGE);
    return cmd ? 0 : 2;
  }
  const c = COMMANDS[cmd];
  if (!c) {
    process.stderr.write(`llm-nrm: unknown command "${cmd}".\n\n${USAGE}`);
    return 2;
  }
  try {
    return await c.run(rest);
  } catch (e) {
    if (e instanceof DataError || (e as Error).name === 'DataError') {
      process.stderr.write(`llm-nrm: invalid input: ${(e as Error).message}\n`);
      return 1;
    }
    if (e instanceof UsageError) {
      process.stderr.write(`llm-nrm: ${e.message}\n`);
      return 2;
    }
    process.stderr.write(`llm-nrm: ${(e as Error).stack ?? e}\n`);
    return 1;
  }
}
