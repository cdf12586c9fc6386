import { readFile } from 'node:fs/promises';
import { toCsv } from '../boundary/csv';
import { bankFromFit, type ItemBank } from '../core/bank/bank';
import { bankToParameterTable } from '../core/bank/table';
import { validateBank } from '../core/bank/validate';
import { DIFFICULTY_UNDEFINED, difficultyDefined } from '../core/model/difficulty';
import { DatasetBuilder } from '../core/data/builder';
import { createItemsParser } from '../core/data/items';
import type { ItemText } from '../core/data/types';
import { parse, UsageError } from './args';
import { readFit, writeOut } from './io';

export const BANK_USAGE = `llm-nrm bank save fit.json --out bank.json [--table params.csv] [--items items.csv] [--data FILE]...
llm-nrm bank table bank.json [--out params.csv]
llm-nrm bank check bank.json`;

/** Read and validate a bank file; problems become a usage error listing them. */
export async function readBank(path: string): Promise<ItemBank> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (e) {
    throw new UsageError(`${path}: ${(e as Error).message}`);
  }
  try {
    return validateBank(json, path);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** Question and option texts of an items CSV, by item id. */
export async function readItemTexts(path: string): Promise<Map<string, ItemText | null>> {
  const builder = new DatasetBuilder();
  const parser = createItemsParser(path, builder);
  parser.push(await readFile(path, 'utf8'), 0);
  parser.finish();
  return new Map([...builder.items].map(([id, rec]) => [id, rec.text]));
}

function summary(bank: ItemBank): string {
  const benches = new Set(bank.items.map((it) => it.benchmark)).size;
  return `${bank.items.length} items (${benches} benchmark${benches === 1 ? '' : 's'}), model ${bank.model}, Kmax ${bank.Kmax}, calibrated on ${bank.calibration.llms.length} LLMs${undefinedDifficulty(bank)}`;
}

/** "; b̃ undefined (key not discriminating) for 24 items: …" (core/model/difficulty.ts), or ''. */
function undefinedDifficulty(bank: ItemBank): string {
  const ids = bank.items.filter((it) => !difficultyDefined(it)).map((it) => it.id);
  if (ids.length === 0) return '';
  const list = ids.length > 5 ? `${ids.slice(0, 5).join(', ')}, …` : ids.join(', ');
  return `; b̃ ${DIFFICULTY_UNDEFINED} for ${ids.length} item${ids.length === 1 ? '' : 's'} (${list}; the table keeps their numbers)`;
}

async function save(argv: string[]): Promise<number> {
  const { values: v, positionals } = parse(
    argv,
    {
      out: { type: 'string' },
      table: { type: 'string' },
      items: { type: 'string' },
      data: { type: 'string', multiple: true },
    },
    BANK_USAGE,
  );
  if (positionals.length !== 1) throw new UsageError(`Give exactly one fit.json.\n\n${BANK_USAGE}`);
  if (!v.out) throw new UsageError(`bank save needs --out bank.json.\n\n${BANK_USAGE}`);
  const fit = await readFit(positionals[0]);
  const texts = v.items ? await readItemTexts(v.items) : undefined;
  if (texts) {
    const byId = new Map(fit.items.map((it) => [it.id, it]));
    const missing = [...byId.keys()].filter((id) => !texts.has(id));
    if (missing.length > 0)
      process.stderr.write(
        `note: ${missing.length} bank items have no row in ${v.items} (no texts).\n`,
      );
  }
  const bank = bankFromFit(fit, { dataFiles: v.data ?? [] }, texts);
  if (!v.data) process.stderr.write('note: no --data given; the bank records no data files.\n');
  await writeOut(v.out, JSON.stringify(bank, null, 1) + '\n');
  if (v.table) await writeOut(v.table, toCsv(bankToParameterTable(bank)));
  process.stderr.write(`bank: ${summary(bank)}\n`);
  return 0;
}

export async function bankCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'save') return save(rest);
  if (sub === 'table' || sub === 'check') {
    const { values: v, positionals } = parse(rest, { out: { type: 'string' } }, BANK_USAGE);
    if (positionals.length !== 1)
      throw new UsageError(`Give exactly one bank.json.\n\n${BANK_USAGE}`);
    const bank = await readBank(positionals[0]);
    if (sub === 'table') await writeOut(v.out, toCsv(bankToParameterTable(bank)));
    process.stderr.write(`${positionals[0]}: ${summary(bank)}\n`);
    return 0;
  }
  throw new UsageError(`bank needs a subcommand: save, table or check.\n\n${BANK_USAGE}`);
}
