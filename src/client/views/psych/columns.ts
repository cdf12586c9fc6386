import { OPTION_LABELS } from '../../../core/data/types';
import type { DdRow } from '../../../core/psych/classical';
import type { DdColumns } from '../../../boundary/psychProtocol';
import type { Column } from '../../components/DataTable';

/** True when every finite number of `key` over the rows is a whole number (a count). */
function wholeColumn(rows: readonly object[], key: string): boolean {
  let any = false;
  for (const r of rows) {
    const v = (r as Record<string, unknown>)[key];
    if (typeof v !== 'number' || !Number.isFinite(v)) continue;
    if (!Number.isInteger(v)) return false;
    any = true;
  }
  return any;
}

/** A count as an integer ("18", "1,204"); not finite: "—". */
export const fmtCount = (v: number) => (Number.isFinite(v) ? v.toLocaleString('en-US') : '—');

/**
 * DataTable columns for plain rows: one per key, numeric when the first row's
 * value is a number. A numeric column whose values are all whole numbers (cell
 * counts, group numbers, sample sizes) is shown as integers, not "18.000".
 */
export function columnsOf<T extends object>(
  rows: readonly T[],
  keys: readonly (keyof T & string)[],
): Column<T>[] {
  const first = rows[0] as Record<string, unknown> | undefined;
  return keys.map((key) => {
    const numeric = typeof first?.[key] === 'number';
    const value = (r: T) => {
      const v = (r as Record<string, unknown>)[key];
      return typeof v === 'number' ? v : String(v ?? '');
    };
    const whole = numeric && wholeColumn(rows, key);
    return {
      key,
      label: key,
      numeric,
      value,
      ...(whole ? { render: (r: T) => fmtCount(value(r) as number) } : {}),
    };
  });
}

/** The DDplot rows of the worker's columns (boundary/psychProtocol's DdColumns). */
export function ddRows(c: DdColumns, itemIds: readonly string[]): DdRow[] {
  const rows: DdRow[] = new Array(c.item.length);
  for (let r = 0; r < rows.length; r++)
    rows[r] = {
      item: itemIds[c.item[r]],
      group: c.group[r],
      option: OPTION_LABELS[c.option[r]],
      isKey: c.isKey[r] === 1,
      share: c.share[r],
      n: c.n[r],
    };
  return rows;
}
