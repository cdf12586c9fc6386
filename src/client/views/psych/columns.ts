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
