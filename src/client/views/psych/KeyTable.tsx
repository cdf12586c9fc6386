import { useMemo } from 'react';
import { DataTable, type DataTableProps } from '../../components/DataTable';
import { columnsOf } from './columns';

type Keys<T> = readonly (keyof T & string)[];

/**
 * A DataTable of plain rows named by their keys, as the core's psychometric
 * tables are: one column per key of `keys`, in order (columnsOf), and each
 * row told apart by its values of `idKeys` joined by "|".
 */
export function KeyTable<T extends object>({
  keys,
  idKeys,
  ...props
}: Omit<DataTableProps<T>, 'columns' | 'rowKey'> & { keys: Keys<T>; idKeys: Keys<T> }) {
  const { rows } = props;
  const columns = useMemo(() => columnsOf(rows, keys), [rows, keys]);
  const rowKey = useMemo(() => (r: T) => idKeys.map((k) => String(r[k])).join('|'), [idKeys]);
  return <DataTable {...props} columns={columns} rowKey={rowKey} />;
}
