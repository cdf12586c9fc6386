/** Telling a file's format from its name and first line. */
import Papa from 'papaparse';
import { checkDelimiter } from './csv.ts';
import { DataError } from './types.ts';

/** The streamed text formats `loadDataset` reads. */
export type FileFormat = 'wide' | 'long' | 'items' | 'harness';

/** JSON documents read whole (see `docs.ts`). */
export type DocFormat = 'harness-results' | 'inspect' | 'helm' | 'opencompass';

const top = (v: unknown) =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.keys(v) : [];

/**
 * Recognises a JSON document (not JSON lines) from its start: a harness
 * `results_*.json`, an Inspect log (`version`, `eval`), a HELM
 * `scenario_state.json` (`adapter_spec`, `request_states`) or an OpenCompass
 * predictions file (`"0": {"origin_prompt" | "label: A" | "testing input" ...}`).
 * Returns null for anything else (harness sample logs included).
 */
export function detectJsonDoc(name: string, head: string): DocFormat | null {
  const text = (head.charCodeAt(0) === 0xfeff ? head.slice(1) : head).trimStart();
  if (!text.startsWith('{')) return null;
  if (/(^|[\\/])results(_[^\\/]*)?\.json$/i.test(name)) return 'harness-results';
  const nl = text.indexOf('\n');
  let keys: string[] | null = null;
  try {
    keys = top(JSON.parse(nl < 0 ? text : text.slice(0, nl)));
  } catch {
    // A pretty-printed document: judge by the keys in its head.
  }
  const has = (k: string) => (keys ? keys.includes(k) : text.includes(`"${k}"`));
  if (has('request_states') || has('adapter_spec')) return 'helm';
  if (has('eval') && (has('version') || has('samples'))) return 'inspect';
  if (keys && (keys.includes('doc_id') || keys.includes('resps'))) return null;
  if (/"(origin_prompt|testing input|label: [^"]*)"\s*:/.test(text) && /^\{\s*"0"\s*:/.test(text))
    return 'opencompass';
  return null;
}

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
