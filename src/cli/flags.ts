import { readFile } from 'node:fs/promises';
import { toCsv } from '../boundary/csv';
import { bankAsFit } from '../core/bank/bank';
import { FLAG_COLUMNS, flagItems } from '../core/bank/flags';
import { FLAG_DEFAULTS } from '../core/defaults';
import type { FitJson } from '../core/fit/types';
import { num, parse, UsageError } from './args';
import { readBank } from './bank';
import { loadData, readFit, writeOut } from './io';

export const FLAGS_USAGE = `llm-nrm flags fit.json|bank.json [DATA...] [--items items.csv] [--min-gain ${FLAG_DEFAULTS.minKeyGain}] [--saturation ${FLAG_DEFAULTS.saturation}] --out flags.csv`;

/** A fit.json, or a bank.json read as a fit. */
async function readFitOrBank(path: string): Promise<FitJson> {
  let schema: unknown;
  try {
    schema = (JSON.parse(await readFile(path, 'utf8')) as { schema?: unknown }).schema;
  } catch (e) {
    throw new UsageError(`${path}: not valid JSON (${(e as Error).message}).`);
  }
  return schema === 'llm-nrm-bank/1' ? bankAsFit(await readBank(path)) : readFit(path);
}

export async function flagsCommand(argv: string[]): Promise<number> {
  const { values: v, positionals } = parse(
    argv,
    {
      items: { type: 'string' },
      'min-gain': { type: 'string' },
      saturation: { type: 'string' },
      out: { type: 'string' },
    },
    FLAGS_USAGE,
  );
  if (positionals.length < 1)
    throw new UsageError(`Give a fit.json (or bank.json).\n\n${FLAGS_USAGE}`);
  const fit = await readFitOrBank(positionals[0]);
  const ds = positionals.length > 1 ? await loadData(positionals.slice(1), v.items) : undefined;
  const flags = flagItems(fit, ds, {
    minKeyGain: num(v['min-gain'], 'min-gain', FLAG_DEFAULTS.minKeyGain),
    saturation: num(v.saturation, 'saturation', FLAG_DEFAULTS.saturation),
  });
  await writeOut(v.out, toCsv(flags, FLAG_COLUMNS));
  const counts = new Map<string, number>();
  for (const f of flags) counts.set(f.flag, (counts.get(f.flag) ?? 0) + 1);
  const items = new Set(flags.map((f) => f.item)).size;
  process.stderr.write(
    `${items} of ${fit.items.length} items flagged${counts.size ? ': ' : ''}${[...counts].map(([k, n]) => `${k} ${n}`).join(', ')}\n`,
  );
  if (!ds)
    process.stderr.write(
      'note: no data given; saturation is judged from the model, duplicates are not checked.\n',
    );
  return 0;
}
