import { toCsv } from '../boundary/csv';
import { itemInfoRows } from '../core/fit/info';
import { parse, UsageError } from './args';
import { readFit, writeOut } from './io';

export const INFO_USAGE = 'llm-nrm info fit.json [--out info.csv]';

export async function infoCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { out: { type: 'string' } }, INFO_USAGE);
  if (positionals.length !== 1) throw new UsageError(`Give exactly one fit.json.\n\n${INFO_USAGE}`);
  const fit = await readFit(positionals[0]);
  const rows = itemInfoRows(fit);
  await writeOut(values.out, toCsv(rows));
  const mb = rows.reduce((s, r) => s + r.infoBinary, 0) / (rows.length || 1);
  const mw = rows.reduce((s, r) => s + r.infoWrong, 0) / (rows.length || 1);
  process.stderr.write(
    `${rows.length} items: mean I_binary ${mb.toFixed(4)}, mean I_wrong ${mw.toFixed(4)} (+${((100 * mw) / mb).toFixed(1)}% over binary)\n`,
  );
  return 0;
}
