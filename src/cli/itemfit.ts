/** `llm-nrm itemfit`: infit/outfit per item (and per LLM) of a fit on its data. */
import { toCsv } from '../boundary/csv';
import {
  FIT_THRESHOLDS,
  ITEM_FIT_COLUMNS,
  modelFit,
  PERSON_FIT_COLUMNS,
} from '../core/psych/itemfit';
import { parse, UsageError } from './args';
import { loadData, readFit, writeOut } from './io';

export const ITEMFIT_USAGE = `llm-nrm itemfit fit.json DATA... [--items f] [--llms llmfit.csv] --out itemfit.csv
                    infit/outfit mean squares with Wilson–Hilferty z; flag: MS > ${FIT_THRESHOLDS.underfit} underfit, both < ${FIT_THRESHOLDS.overfit} overfit`;

export async function itemfitCommand(argv: string[]): Promise<number> {
  const { values: v, positionals } = parse(
    argv,
    { items: { type: 'string' }, llms: { type: 'string' }, out: { type: 'string' } },
    ITEMFIT_USAGE,
  );
  if (positionals.length < 2)
    throw new UsageError(`Give a fit.json and its data files.\n\n${ITEMFIT_USAGE}`);
  const fit = await readFit(positionals[0]);
  const ds = await loadData(positionals.slice(1), v.items);
  const res = modelFit(fit, ds);
  await writeOut(v.out, toCsv(res.items, ITEM_FIT_COLUMNS));
  if (v.llms) await writeOut(v.llms, toCsv(res.llms, PERSON_FIT_COLUMNS));
  const flagged = res.items.filter((r) => r.flag === 'underfit').length;
  const over = res.items.filter((r) => r.flag === 'overfit').length;
  const llmsOff = res.llms.filter((r) => r.flag === 'underfit').length;
  process.stderr.write(
    `${res.kind}-level residuals; ${flagged} of ${res.items.length} items underfit, ${over} overfit; ${llmsOff} of ${res.llms.length} LLMs underfit\n`,
  );
  return 0;
}
