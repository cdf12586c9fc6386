/** Telling a file's format from its name and first line. */
import Papa from 'papaparse';
import { checkDelimiter } from './csv.ts';
import { DataError } from './types.ts';

/** The formats `loadDataset` reads. */
export type FileFormat = 'wide' | 'long' | 'items' | 'harness';

/**
 * Detects the format of a file from its name and the start of its text:
 * `.jsonl` (or a first line starting with '{') is a harness samples log; a CSV
 * header with `model,item,option` is long, with `model,item` wide, and with
 * `item` but no `model` an items file. Throws DataError for an empty file, a
 * semicolon- or tab-delimited header, or a header matching none of these.
 */
export function detectFormat(name: string, head: string): FileFormat {
  const text = head.charCodeAt(0) === 0xfeff ? head.slice(1) : head;
  if (/\.jsonl$/i.test(name) || text.trimStart().startsWith('{')) return 'harness';
  if (text.trim() === '') throw new DataError('the file is empty', name);
  const nl = text.indexOf('\n');
  const line = (nl < 0 ? text : text.slice(0, nl)).replace(/\r$/, '');
  const row = Papa.parse<string[]>(line, { delimiter: ',' }).data[0] ?? [];
  const cols = new Set(row.map((c) => c.trim()));
  if (cols.has('model') && cols.has('item')) return cols.has('option') ? 'long' : 'wide';
  if (cols.has('item') && !cols.has('model')) return 'items';
  checkDelimiter(name, line);
  throw new DataError(
    'unrecognised header: not a wide, long or items CSV',
    name,
    1,
    undefined,
    'model,item,key,A,B,... (wide), model,item,option,prob (long) or item,key,n_options (items)',
  );
}
