import { memo, useCallback, useMemo, useState, type ReactNode } from 'react';
import { toCsv } from '../../boundary/csv';
import { downloadBlob } from '../../charts/export';
import { slug } from '../slug';
import { useGradual } from '../useGradual';
import { useLatest } from '../useLatest';

export interface Column<T> {
  key: string;
  label: ReactNode;
  /** Sort and CSV value. */
  value: (row: T) => string | number;
  /** Cell content (default: the value, numbers to 3 decimals). */
  render?: (row: T) => ReactNode;
  numeric?: boolean;
}

export interface DataTableProps<T> {
  rows: T[];
  columns: Column<T>[];
  rowKey: (row: T) => string | number;
  /** CSV file name without extension. */
  name: string;
  caption: string;
  /** Text search over these columns' values. */
  searchKeys?: string[];
  selected?: string | number | null;
  onSelect?: (row: T) => void;
  /** Rows drawn at first; the rest behind "show more" (the CSV always has all). */
  pageSize?: number;
  initialSort?: { key: string; desc: boolean };
}

export const fmtNum = (v: number, d = 3) => (Number.isFinite(v) ? v.toFixed(d) : '—');

/**
 * Rows drawn in the first task, then per frame after it: a page of hundreds of
 * rows (the Items view's 300) built and laid out at once was a main-thread
 * task of well over 100 ms at 189 × 5,000.
 */
export const ROWS_FIRST = 20;
export const ROWS_STEP = 40;

interface RowProps<T> {
  row: T;
  columns: Column<T>[];
  id: string;
  selected: boolean;
  onSelect?: (row: T) => void;
}

/** One row; memoised, so drawing more rows, or selecting one, does not redraw the others. */
const Row = memo(function Row<T>({ row, columns, id, selected, onSelect }: RowProps<T>) {
  return (
    <tr
      id={id}
      className={selected ? 'selected' : undefined}
      aria-selected={onSelect ? selected : undefined}
      onClick={onSelect ? () => onSelect(row) : undefined}
    >
      {columns.map((c) => {
        const v = c.value(row);
        const content = c.render ? c.render(row) : typeof v === 'number' ? fmtNum(v) : v;
        return (
          <td key={c.key} className={c.numeric ? 'num' : undefined}>
            {content}
          </td>
        );
      })}
    </tr>
  );
}) as <T>(p: RowProps<T>) => ReactNode;

/** Row moves by key: a step, a page (20 rows) or an end of the table. */
const ROW_KEYS: Record<string, number | 'first' | 'last' | undefined> = {
  ArrowDown: 1,
  ArrowUp: -1,
  PageDown: 20,
  PageUp: -20,
  Home: 'first',
  End: 'last',
};

type Sort = { key: string; desc: boolean } | null;

/** The rows whose search columns contain the query, sorted by the sort column (NaN last). */
function searchAndSort<T>(
  rows: T[],
  columns: Column<T>[],
  searchKeys: string[] | undefined,
  query: string,
  sort: Sort,
): T[] {
  const q = query.trim().toLowerCase();
  if (q && searchKeys) {
    const cols = columns.filter((c) => searchKeys.includes(c.key));
    rows = rows.filter((r) => cols.some((c) => String(c.value(r)).toLowerCase().includes(q)));
  }
  const col = sort && columns.find((c) => c.key === sort.key);
  if (col) {
    const dir = sort.desc ? -1 : 1;
    rows = [...rows].sort((a, b) => {
      const x = col.value(a);
      const y = col.value(b);
      if (typeof x === 'number' && typeof y === 'number') {
        if (Number.isNaN(x)) return Number.isNaN(y) ? 0 : 1;
        if (Number.isNaN(y)) return -1;
        return (x - y) * dir;
      }
      return String(x).localeCompare(String(y)) * dir;
    });
  }
  return rows;
}

/** Downloads the rows as `<name>.csv`, one column per table column, by key. */
function downloadCsv<T>(rows: T[], columns: Column<T>[], name: string) {
  const records = rows.map((r) => Object.fromEntries(columns.map((c) => [c.key, c.value(r)])));
  const csv = toCsv(
    records,
    columns.map((c) => c.key),
  );
  downloadBlob(new Blob([csv], { type: 'text/csv' }), `${slug(name)}.csv`);
}

/** The row a key moves the selection to from row `at` (-1: none) among `n`; undefined for other keys. */
function rowMove(key: string, at: number, n: number): number | undefined {
  const move = ROW_KEYS[key];
  if (move === undefined) return undefined;
  const target = move === 'first' ? 0 : move === 'last' ? n - 1 : Math.max(0, at) + move;
  return Math.min(n - 1, Math.max(0, target));
}

/** The header row: each column's label a button that sorts by it (again: the other way). */
function SortHeader<T>(p: { columns: Column<T>[]; sort: Sort; onSort: (s: Sort) => void }) {
  const { sort } = p;
  return (
    <tr>
      {p.columns.map((c) => {
        const dir = sort?.key === c.key ? (sort.desc ? 'descending' : 'ascending') : 'none';
        return (
          <th key={c.key} aria-sort={dir} className={c.numeric ? 'num' : undefined}>
            <button
              type="button"
              className="sort"
              onClick={() =>
                p.onSort({
                  key: c.key,
                  desc: sort?.key === c.key ? !sort.desc : !!c.numeric,
                })
              }
            >
              {c.label}
              <span aria-hidden="true">
                {dir === 'none' ? '' : dir === 'ascending' ? ' ▲' : ' ▼'}
              </span>
            </button>
          </th>
        );
      })}
    </tr>
  );
}

/** A sortable, searchable table with CSV export; Up/Down move the selection. */
export function DataTable<T>(p: DataTableProps<T>) {
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<Sort>(p.initialSort ?? null);
  const [limit, setLimit] = useState(p.pageSize ?? 500);
  // The farthest row the keyboard moved to: drawn at once, whatever is still to come.
  const [reach, setReach] = useState(0);
  // One onSelect for every row (the caller's changes each render), so rows stay memoised.
  const selectTo = useLatest(p.onSelect);
  const select = useCallback((r: T) => selectTo.current?.(r), [selectTo]);

  const shown = useMemo(
    () => searchAndSort(p.rows, p.columns, p.searchKeys, query, sort),
    [p.rows, p.columns, p.searchKeys, query, sort],
  );
  const drawn = useGradual(shown, Math.min(shown.length, limit), ROWS_FIRST, ROWS_STEP, reach);

  const onKey = (e: React.KeyboardEvent) => {
    if (!p.onSelect || ROW_KEYS[e.key] === undefined) return;
    const at = shown.findIndex((r) => p.rowKey(r) === p.selected);
    const next = rowMove(e.key, at, shown.length);
    if (next === undefined) return;
    e.preventDefault();
    if (shown[next]) {
      p.onSelect(shown[next]);
      if (next >= limit) setLimit(next + 1);
      if (next >= drawn) setReach(next + 1);
      const id = `${slug(p.name)}-row-${p.rowKey(shown[next])}`;
      requestAnimationFrame(() =>
        document.getElementById(id)?.scrollIntoView({ block: 'nearest' }),
      );
    }
  };

  return (
    <div className="data-table">
      <div className="table-tools">
        {p.searchKeys && (
          <input
            type="search"
            placeholder="Search…"
            aria-label={`Search ${p.caption}`}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        )}
        <span className="muted" data-testid="table-count">
          {Math.min(shown.length, limit)} of {p.rows.length} shown
          {shown.length < p.rows.length ? ` (${shown.length} match)` : ''}
        </span>
        <button
          type="button"
          className="small"
          onClick={() => downloadCsv(shown, p.columns, p.name)}
        >
          CSV
        </button>
      </div>
      <div
        className="table-scroll"
        tabIndex={0}
        role="region"
        aria-label={`${p.caption}${p.onSelect ? ' (Up/Down, PageUp/PageDown, Home/End to move through rows)' : ''}`}
        onKeyDown={onKey}
      >
        <table>
          <caption className="sr-only">{p.caption}</caption>
          <thead>
            <SortHeader columns={p.columns} sort={sort} onSort={setSort} />
          </thead>
          <tbody>
            {shown.slice(0, drawn).map((r) => {
              const k = p.rowKey(r);
              return (
                <Row
                  key={k}
                  row={r}
                  columns={p.columns}
                  id={`${slug(p.name)}-row-${k}`}
                  selected={p.selected === k}
                  onSelect={p.onSelect ? select : undefined}
                />
              );
            })}
          </tbody>
        </table>
      </div>
      {shown.length > limit && (
        <button type="button" className="small" onClick={() => setLimit(limit + 500)}>
          Show more ({shown.length - limit} hidden)
        </button>
      )}
    </div>
  );
}
