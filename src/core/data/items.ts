/**
 * Items CSV: `item,key,n_options[,benchmark][,question,option_A..option_J]`.
 * Supplies keys and option counts for long files, and item texts for any format.
 */
import type { DatasetBuilder, ItemsTable } from './builder.ts';
import { columnsOf, csvParser, warnIgnoredColumns } from './csv.ts';
import type { CsvHeader, StreamOptions } from './csv.ts';
import { readLabel, readOptionCount } from './values.ts';
import { DataError, OPTION_LABELS, quoted } from './types.ts';

const EXPECTED = 'item,key,n_options[,benchmark][,question,option_A..option_J]';

/**
 * Creates an incremental parser for an items CSV. `finish()` validates the file
 * and merges its items into `builder` (so call it before any long file's parser).
 */
export function createItemsParser(file: string, builder: DatasetBuilder, opts: StreamOptions = {}) {
  const table: ItemsTable = new Map();
  let col = { item: 0, key: 0, n: 0, bench: -1, question: -1 };
  let optionCols: number[] = [];
  let hasText = false;

  const onHeader = (h: CsvHeader) => {
    const need = { item: 'item', key: 'key', n: 'n_options' };
    col = columnsOf(file, h, EXPECTED, need, { bench: 'benchmark', question: 'question' });
    optionCols = OPTION_LABELS.map((l) => h.index.get(`option_${l}`) ?? -1);
    hasText = col.question >= 0 || optionCols.some((c) => c >= 0);
    const known = new Set(['item', 'key', 'n_options', 'benchmark', 'question']);
    OPTION_LABELS.forEach((l) => known.add(`option_${l}`));
    const extra = h.names.filter((n) => n !== '' && !known.has(n));
    warnIgnoredColumns(builder, file, extra);
  };

  const onRow = (f: string[], line: number) => {
    const id = f[col.item].trim();
    if (id === '') throw new DataError('empty item id', file, line, 'item', 'a non-empty item id');
    if (builder.skipItem(id, false)) return;
    const prev = table.get(id);
    if (prev)
      throw new DataError(
        `duplicate item ${quoted(id)} (first at line ${prev.at.line})`,
        file,
        line,
        'item',
        'each item once',
      );
    const nOptions = readOptionCount(f[col.n], { file, line, column: 'n_options' });
    const key = readLabel(f[col.key], nOptions, { file, line, column: 'key' });
    let text = null;
    if (hasText) {
      const options: string[] = [];
      optionCols.forEach((c, k) => {
        const s = c >= 0 ? f[c] : '';
        if (k < nOptions) options.push(s);
        else if (s.trim() !== '')
          builder.tally(file, 'ignored-column', 'option-text', line, (n) => {
            return `${n} option texts beyond their item's n_options were ignored`;
          });
      });
      text = { question: col.question >= 0 ? f[col.question] : '', options };
    }
    const benchmark = col.bench >= 0 ? f[col.bench].trim() : '';
    table.set(id, { key, nOptions, benchmark, text, at: { file, line } });
  };

  return csvParser(file, onHeader, onRow, opts, (rows) => {
    builder.addItems(table, { file, format: 'items', rows: rows });
  });
}
