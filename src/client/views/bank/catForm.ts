/** The CAT form's stopping rules, stop reasons in words, and the tiny-benchmark download. */
import { downloadBlob } from '../../../charts/export';
import type { ItemBank } from '../../../core/bank/bank';
import type { CatStop } from '../../../core/bank/cat';
import { tinyBenchmarkCsv } from '../../../core/bank/select';
import type { ItemText } from '../../../core/data/types';
import type { CatSettings } from '../../../boundary/bankProtocol';

/** The stopping rules from the form: max items ≥ 1 (default 41), an optional SE target. */
export function catSettings(maxItems: string, se: string): CatSettings {
  const n = Number(maxItems);
  if (!(Number.isInteger(n) && n >= 1)) throw new Error('Max items must be a whole number ≥ 1.');
  if (se.trim() === '') return { maxItems: n };
  const t = Number(se);
  if (!(t > 0)) throw new Error('The SE target must be a number > 0 (or empty for none).');
  return { maxItems: n, se: t };
}

export const STOP_TEXT: Record<CatStop, string> = {
  se: 'SE target reached',
  'max-items': 'max items reached',
  'pool-exhausted': 'no items left',
};

/** Downloads the given items as an items CSV (a tiny benchmark), texts included when known. */
export function downloadTiny(
  bank: ItemBank,
  items: string[],
  texts: ReadonlyMap<string, ItemText | null>,
  name = 'tiny-benchmark.csv',
): void {
  const csv = tinyBenchmarkCsv(bank, items, texts);
  downloadBlob(new Blob([csv], { type: 'text/csv' }), name);
}
