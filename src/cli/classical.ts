/** `llm-nrm classical` and `llm-nrm reliability`: classical item analysis and reliability tables. */
import { toCsv } from '../boundary/csv';
import {
  CLASSICAL_COLUMNS,
  classicalAnalysis,
  DD_COLUMNS,
  OPTION_SHARE_COLUMNS,
} from '../core/psych/classical';
import { RELIABILITY_COLUMNS, reliability } from '../core/psych/reliability';
import { num, parse, UsageError } from './args';
import { loadData, readFit, writeOut } from './io';

export const CLASSICAL_USAGE = `llm-nrm classical DATA... [--items f] [--options options.csv] [--dd dd.csv] [--score-groups 3] --out classical.csv
                    proportion correct, item–rest r, upper–lower index; option shares; DDplot shares by score group`;
export const RELIABILITY_USAGE = `llm-nrm reliability fit.json [DATA...] [--items f] --out reliability.csv
                    empirical and marginal reliability of θ, overall and per benchmark; Cronbach's α when DATA is given`;

export async function classicalCommand(argv: string[]): Promise<number> {
  const { values: v, positionals } = parse(
    argv,
    {
      items: { type: 'string' },
      options: { type: 'string' },
      dd: { type: 'string' },
      'score-groups': { type: 'string' },
      out: { type: 'string' },
    },
    CLASSICAL_USAGE,
  );
  const ds = await loadData(positionals, v.items);
  const groups = num(v['score-groups'], 'score-groups', 3);
  if (!Number.isInteger(groups) || groups < 1)
    throw new UsageError(`--score-groups must be a positive integer, got ${groups}.`);
  const res = classicalAnalysis(ds, groups);
  await writeOut(v.out, toCsv(res.items, CLASSICAL_COLUMNS));
  if (v.options) await writeOut(v.options, toCsv(res.options, OPTION_SHARE_COLUMNS));
  if (v.dd) await writeOut(v.dd, toCsv(res.dd, DD_COLUMNS));
  const neg = res.items.filter((r) => r.itemRest < 0).length;
  process.stderr.write(
    `${ds.I} items, ${ds.J} LLMs; ${neg} items with a negative item–rest correlation\n`,
  );
  return 0;
}

export async function reliabilityCommand(argv: string[]): Promise<number> {
  const { values: v, positionals } = parse(
    argv,
    { items: { type: 'string' }, out: { type: 'string' } },
    RELIABILITY_USAGE,
  );
  if (positionals.length < 1) throw new UsageError(`Give a fit.json.\n\n${RELIABILITY_USAGE}`);
  const fit = await readFit(positionals[0]);
  const ds = positionals.length > 1 ? await loadData(positionals.slice(1), v.items) : undefined;
  const rows = reliability(fit, ds);
  await writeOut(v.out, toCsv(rows, RELIABILITY_COLUMNS));
  const all = rows[0];
  process.stderr.write(
    `reliability of θ: empirical ${all.empirical.toFixed(3)}, marginal ${all.marginal.toFixed(3)}; α ${Number.isFinite(all.alpha) ? all.alpha.toFixed(3) : 'n/a'}\n`,
  );
  return 0;
}
