import { toCsv } from '../boundary/csv';
import { runCat, type CatResult } from '../core/bank/cat';
import { CAT_DEFAULTS } from '../core/defaults';
import { responseModel } from '../core/bank/model';
import { selectItems, tinyBenchmarkCsv } from '../core/bank/select';
import { num, oneOf, parse, UsageError } from './args';
import { readBank, readItemTexts } from './bank';
import { loadData, writeOut } from './io';
import { listIds } from './score';

export const CAT_USAGE = `llm-nrm cat --bank bank.json DATA... [--items items.csv] [--max-items ${CAT_DEFAULTS.maxItems}] [--se 0.2]
                    [--values prob|weight|logprob] [--trace trace.csv] --out cat.csv`;
export const SELECT_USAGE = `llm-nrm select --bank bank.json --k ${CAT_DEFAULTS.selectK} [--range=-2,2] [--items items.csv] --out items.csv`;

export async function catCommand(argv: string[]): Promise<number> {
  const { values: v, positionals } = parse(
    argv,
    {
      bank: { type: 'string' },
      items: { type: 'string' },
      'max-items': { type: 'string' },
      se: { type: 'string' },
      values: { type: 'string' },
      trace: { type: 'string' },
      out: { type: 'string' },
    },
    CAT_USAGE,
  );
  if (!v.bank) throw new UsageError(`cat needs --bank bank.json.\n\n${CAT_USAGE}`);
  const bank = await readBank(v.bank);
  const maxItems = num(v['max-items'], 'max-items', CAT_DEFAULTS.maxItems);
  const se = v.se === undefined ? undefined : num(v.se, 'se', 0);
  if (!(maxItems >= 1)) throw new UsageError('--max-items must be at least 1.');
  const valueKind = v.values
    ? oneOf(v.values, 'values', ['prob', 'weight', 'logprob'] as const, 'prob')
    : undefined;
  const ds = await loadData(positionals, v.items, valueKind);
  const m = responseModel(bank);
  const notInBank = ds.itemIds.filter((id) => !m.index.has(id));
  if (notInBank.length === ds.I) throw new UsageError('None of the data items is in the bank.');
  if (notInBank.length > 0)
    process.stderr.write(
      `${notInBank.length} items are not in the bank and were ignored: ${listIds(notInBank)}\n`,
    );
  const results: CatResult[] = [];
  for (let j = 0; j < ds.J; j++) {
    try {
      results.push(await runCat(m, ds, j, { maxItems, se }));
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    process.stderr.write(`\r${j + 1}/${ds.J} LLMs tested   `);
  }
  process.stderr.write('\n');
  const rows = results.map((r) => ({
    llm: r.llm,
    theta: r.theta,
    se: r.se,
    n_items: r.items.length,
    stopped: r.stopped,
    items: r.items.join(' '),
  }));
  await writeOut(v.out, toCsv(rows));
  if (v.trace) {
    const trace = results.flatMap((r) =>
      r.trace.map((s, q) => ({ llm: r.llm, step: q + 1, item: s.item, theta: s.theta, se: s.se })),
    );
    await writeOut(v.trace, toCsv(trace));
  }
  const mean = rows.reduce((a, r) => a + r.n_items, 0) / (rows.length || 1);
  process.stderr.write(`${rows.length} LLMs, ${mean.toFixed(1)} items each on average\n`);
  return 0;
}

function range(v: string | undefined): [number, number] {
  if (v === undefined) return [-2, 2];
  const parts = v.split(',').map(Number);
  if (parts.length !== 2 || !parts.every(Number.isFinite) || !(parts[1] > parts[0]))
    throw new UsageError(`--range expects lo,hi with lo < hi (e.g. --range=-2,2); got "${v}".`);
  return [parts[0], parts[1]];
}

export async function selectCommand(argv: string[]): Promise<number> {
  const { values: v } = parse(
    argv,
    {
      bank: { type: 'string' },
      k: { type: 'string' },
      range: { type: 'string' },
      items: { type: 'string' },
      out: { type: 'string' },
    },
    SELECT_USAGE,
  );
  if (!v.bank) throw new UsageError(`select needs --bank bank.json.\n\n${SELECT_USAGE}`);
  const bank = await readBank(v.bank);
  const k = num(v.k, 'k', CAT_DEFAULTS.selectK);
  if (!(k >= 1) || !Number.isInteger(k)) throw new UsageError('--k must be a whole number ≥ 1.');
  const chosen = selectItems(bank, k, { thetaRange: range(v.range) });
  const texts = v.items ? await readItemTexts(v.items) : undefined;
  await writeOut(
    v.out,
    tinyBenchmarkCsv(
      bank,
      chosen.map((c) => c.item),
      texts,
    ),
  );
  const mean = chosen.reduce((a, c) => a + c.info, 0) / (chosen.length || 1);
  process.stderr.write(
    `${chosen.length} of ${bank.items.length} items, mean information ${mean.toFixed(3)} over θ ∈ [${range(v.range).join(', ')}]\n`,
  );
  return 0;
}
