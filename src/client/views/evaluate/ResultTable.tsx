import type { ReactNode } from 'react';
import { toCsv } from '../../../boundary/csv';
import { downloadBlob } from '../../../charts/export';
import { slug } from '../../slug';
import { meanSd } from './shape';

export interface ResultColumn<T> {
  label: ReactNode;
  cell: (row: T) => ReactNode;
  numeric?: boolean;
  /** Marks the column's best row: its number and which way is better. */
  best?: { value: (row: T) => number; better: 'higher' | 'lower' };
}

/** The column naming each row's model. */
export const MODEL_COLUMN: ResultColumn<{ model: string }> = {
  label: 'Model',
  cell: (r) => r.model,
};

/** A numeric column of `mean ± sd` read from a row's `<key>_mean` and `<key>_sd`. */
export function meanSdColumn(label: string, key: string): ResultColumn<object> {
  const at = (r: object, suffix: string) => (r as Record<string, unknown>)[`${key}_${suffix}`];
  return { label, numeric: true, cell: (r) => meanSd(at(r, 'mean'), at(r, 'sd')) };
}

/** Index of the best finite value (first on ties), or -1 when there is none. */
export function bestRow<T>(rows: T[], best: NonNullable<ResultColumn<T>['best']>): number {
  let at = -1;
  rows.forEach((r, i) => {
    const v = best.value(r);
    if (!Number.isFinite(v)) return;
    const b = at < 0 ? NaN : best.value(rows[at]);
    if (at < 0 || (best.better === 'higher' ? v > b : v < b)) at = i;
  });
  return at;
}

/**
 * A small results table whose CSV export writes its rows: the core's records
 * (plain objects of numbers and strings), unrounded, with the same columns as
 * the CLI's output.
 */
export function ResultTable<T extends object>({
  caption,
  name,
  rows,
  rowKey,
  columns,
}: {
  caption: string;
  /** CSV file name without extension. */
  name: string;
  rows: T[];
  rowKey: (row: T, i: number) => string;
  columns: ResultColumn<T>[];
}) {
  const bests = columns.map((c) => (c.best ? bestRow(rows, c.best) : -1));
  const exportCsv = () => {
    const csv = toCsv(rows);
    downloadBlob(new Blob([csv], { type: 'text/csv' }), `${slug(name)}.csv`);
  };
  return (
    <div className="data-table eval-table">
      <div className="table-tools">
        <span className="muted">{rows.length} rows</span>
        <button type="button" className="small" onClick={exportCsv}>
          CSV
        </button>
      </div>
      <div className="table-scroll" tabIndex={0} role="region" aria-label={caption}>
        <table>
          <caption className="sr-only">{caption}</caption>
          <thead>
            <tr>
              {columns.map((c, j) => (
                <th key={j} className={c.numeric ? 'num' : undefined} scope="col">
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={rowKey(r, i)} data-row={rowKey(r, i)}>
                {columns.map((c, j) => {
                  const best = bests[j] === i;
                  const cls = [c.numeric ? 'num' : '', best ? 'best' : ''].join(' ').trim();
                  return (
                    <td key={j} className={cls || undefined} data-best={best || undefined}>
                      {c.cell(r)}
                      {best && (
                        <span className="best-mark" title="best in this column">
                          {' '}
                          ★<span className="sr-only"> (best)</span>
                        </span>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
