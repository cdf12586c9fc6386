import { OPTION_LABELS } from '../../../core/data/types';
import type { DdRow } from '../../../core/psych/classical';
import type { DdColumns } from '../../../boundary/psychProtocol';
import type { Column } from '../../components/DataTable';

/** DataTable columns for plain rows: one per key, numeric when the first row's value is a number. */
export function columnsOf<T extends object>(
  rows: readonly T[],
  keys: readonly (keyof T & string)[],
): Column<T>[] {
  const first = rows[0] as Record<string, unknown> | undefined;
  return keys.map((key) => {
    const numeric = typeof first?.[key] === 'number';
    return {
      key,
      label: key,
      numeric,
      value: (r: T) => {
        const v = (r as Record<string, unknown>)[key];
        return typeof v === 'number' ? v : String(v ?? '');
      },
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
