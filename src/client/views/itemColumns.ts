import type { Column } from '../components/DataTable';
import { fmtPercent } from '../format';

/** What every item table's rows carry: the item, its benchmark, its key and the observed accuracy. */
interface ItemBasics {
  id: string;
  benchmark: string;
  /** Key label ('A', ...). */
  key: string;
  accuracy: number;
}

/** The item tables' text search: the item and its benchmark. */
export const ITEM_SEARCH_KEYS: string[] = ['id', 'benchmark'];

/** The columns naming an item, first in the item tables: Item, Benchmark, Key. */
export function itemIdColumns<R extends ItemBasics>(): Column<R>[] {
  return [
    { key: 'id', label: 'Item', value: (r) => r.id },
    { key: 'benchmark', label: 'Benchmark', value: (r) => r.benchmark },
    { key: 'key', label: 'Key', value: (r) => r.key },
  ];
}

/** Observed accuracy (share of LLMs whose top choice is the key), shown as a whole percentage. */
export function accuracyColumn<R extends ItemBasics>(): Column<R> {
  return {
    key: 'accuracy',
    label: 'Accuracy',
    value: (r) => r.accuracy,
    render: (r) => fmtPercent(r.accuracy, 0),
    numeric: true,
  };
}
