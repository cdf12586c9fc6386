import { toCsv } from '../boundary/csv';
import { bankAsFit } from '../core/bank/bank';
import { scoreLlms } from '../core/fit/score';
import { oneOf, parse, UsageError } from './args';
import { readBank } from './bank';
import { loadData, writeOut } from './io';

export const SCORE_USAGE =
  'llm-nrm score --bank bank.json DATA... [--items items.csv] [--channel option|binary|wrong] [--values prob|weight|logprob] --out scores.csv';

/** Print up to `max` ids, then a count. */
export function listIds(ids: string[], max = 10): string {
  return ids.slice(0, max).join(', ') + (ids.length > max ? `, … (${ids.length - max} more)` : '');
}

export async function scoreCommand(argv: string[]): Promise<number> {
  const { values: v, positionals } = parse(
    argv,
    {
      bank: { type: 'string' },
      items: { type: 'string' },
      channel: { type: 'string' },
      values: { type: 'string' },
      out: { type: 'string' },
    },
    SCORE_USAGE,
  );
  if (!v.bank) throw new UsageError(`score needs --bank bank.json.\n\n${SCORE_USAGE}`);
  const bank = await readBank(v.bank);
  const channel = oneOf(v.channel, 'channel', ['option', 'binary', 'wrong'] as const, 'option');
  const valueKind = v.values
    ? oneOf(v.values, 'values', ['prob', 'weight', 'logprob'] as const, 'prob')
    : undefined;
  const ds = await loadData(positionals, v.items, valueKind);
  let res;
  try {
    res = await scoreLlms(ds, bankAsFit(bank), { channel });
  } catch (e) {
    // Key or option-count disagreements and empty overlaps are the user's data, not a crash.
    throw new UsageError((e as Error).message);
  }
  if (res.notInBank.length > 0)
    process.stderr.write(
      `${res.notInBank.length} items are not in the bank and were ignored: ${listIds(res.notInBank)}\n`,
    );
  const rows = res.llms.map((l) => ({
    llm: l.id,
    theta: l.theta,
    se: l.thetaSE,
    s: l.s,
    accuracy: l.accuracy,
    n_items: l.nObserved,
  }));
  await writeOut(v.out, toCsv(rows));
  process.stderr.write(
    `scored ${rows.length} LLMs on ${res.used} bank items (${channel} channel)\n`,
  );
  return 0;
}
