import { infoByBenchmark } from '../../core/eval/info';
import { parse, UsageError } from '../args';
import { readFit, writeOut } from '../io';
import { EVALUATE_USAGE, csv, fmt } from './shared';

/** `llm-nrm evaluate info`: Fig. 2a/2b: item information per benchmark, binary and from the wrong answer. */
export async function infoCommand(argv: string[]): Promise<number> {
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
