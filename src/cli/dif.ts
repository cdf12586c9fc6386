/** `llm-nrm dif`: Mantel–Haenszel and likelihood-ratio DIF between groups of LLMs. */
import { readFile } from 'node:fs/promises';
import { toCsv } from '../boundary/csv';
import { DEFAULT_MODEL } from '../core/defaults';
import { fitDataset } from '../core/fit/fit';
import { DIF_COLUMNS, difTable } from '../core/psych/difTable';
import { groupsOf, parseGroups } from '../core/psych/groups';
import { MODEL_TYPES } from '../core/model/types';
import { oneOf, parse, UsageError } from './args';
import { loadData, readFit, writeOut } from './io';

export const DIF_USAGE = `llm-nrm dif DATA... --groups groups.csv [--items f] [--reference G] [--fit fit.json | --model ${DEFAULT_MODEL}] [--no-lr] --out dif.csv
                    groups.csv: model,group. MH flag: ETS class B/C (|Δ| ≥ 1 and p < 0.05); LR flag: BH q < 0.05`;

export async function difCommand(argv: string[]): Promise<number> {
  const { values: v, positionals } = parse(
    argv,
    {
      groups: { type: 'string' },
      items: { type: 'string' },
      reference: { type: 'string' },
      fit: { type: 'string' },
      model: { type: 'string' },
      'no-lr': { type: 'boolean' },
      out: { type: 'string' },
    },
    DIF_USAGE,
  );
  if (!v.groups) throw new UsageError(`--groups groups.csv is required.\n\n${DIF_USAGE}`);
  const map = parseGroups(await readFile(v.groups, 'utf8'), v.groups);
  const ds = await loadData(positionals, v.items);
  const { group, names } = groupsOf(ds.llmIds, map);
  if (names.length < 2)
    throw new UsageError(`${v.groups}: fewer than two of its groups have LLMs in the data.`);
  const left = group.filter((g) => !g).length;
  if (left) process.stderr.write(`note: ${left} LLMs are in no group and are left out\n`);
  let fit;
  if (!v['no-lr']) {
    if (v.fit) fit = await readFit(v.fit);
    else {
      const model = oneOf(v.model, 'model', MODEL_TYPES, DEFAULT_MODEL);
      process.stderr.write(`fitting ${model} for the likelihood-ratio test…\n`);
      fit = await fitDataset(ds, { model });
    }
  }
  const rows = await difTable(ds, group, names, { reference: v.reference, fit });
  await writeOut(v.out, toCsv(rows, DIF_COLUMNS));
  const mh = rows.filter((r) => r.mhFlag).length;
  const lr = rows.filter((r) => r.lrFlag).length;
  process.stderr.write(
    `reference ${rows[0]?.reference}; MH flags ${mh} of ${rows.length}${fit ? `, LR flags ${lr}` : ''}\n`,
  );
  return 0;
}
