/**
 * Reading the first ~64 KiB of a file for the size guard (`estimate.ts`): how
 * many bytes a row takes, and the (model, item) cells of the sampled rows in
 * file order, from which the shape of the whole file is extrapolated.
 */
import Papa from 'papaparse';
import type { FileFormat } from './detect.ts';
import { harnessTaskName } from './harness.ts';
import { labelIndex } from './values.ts';
import { MAX_OPTIONS } from './types.ts';

/** What the head of a file says. */
export interface HeadSample {
  /** Complete data rows (lines for harness logs) in the head. */
  rows: number;
  /** UTF-8 bytes of the header line (0 for harness logs). */
  headerBytes: number;
  /** UTF-8 bytes of the complete data rows. */
  bodyBytes: number;
  /** True when the head is the whole file. */
  complete: boolean;
  /** Model and item of each cell, in order of first appearance in the head. */
  models: string[];
  items: string[];
  /** Data rows per (model, item) cell: 1, or options per cell for long files. */
  rowsPerCell: number;
  /** Largest option count seen (option columns for wide files). */
  kmax: number;
  /** Values a parsed row stores (option columns; 10 for harness logs). */
  stride: number;
  /** Mean UTF-16 length of ids, for their memory. */
  idChars: number;
}

const utf8Bytes = (s: string) => new TextEncoder().encode(s).length;

/** Splits the head into the part made of complete lines and says whether it is the whole file. */
function completeLines(head: string, fileSize: number): { text: string; complete: boolean } {
  const text = head.charCodeAt(0) === 0xfeff ? head.slice(1) : head;
  const complete = utf8Bytes(head) >= fileSize;
  if (complete) return { text: text.endsWith('\n') ? text : `${text}\n`, complete };
  return { text: text.slice(0, text.lastIndexOf('\n') + 1), complete };
}

function meanLength(ids: string[]): number {
  return ids.length === 0 ? 0 : ids.reduce((t, s) => t + s.length, 0) / ids.length;
}

/** Cells of CSV rows: one per row (wide) or one per distinct (model, item) (long). */
function csvSample(text: string, format: FileFormat): Omit<HeadSample, 'complete'> {
  const nl = text.indexOf('\n');
  const headerBytes = utf8Bytes(text.slice(0, nl + 1));
  const parsed = Papa.parse<string[]>(text, { delimiter: ',', skipEmptyLines: true }).data;
  const header = (parsed[0] ?? []).map((c) => c.trim());
  const rows = parsed.slice(1).filter((r) => r.length === header.length);
  const col = (name: string) => header.indexOf(name);
  const base = { rows: rows.length, headerBytes, bodyBytes: utf8Bytes(text) - headerBytes };
  if (format === 'items') {
    const ids = rows.map((r) => r[col('item')] ?? '');
    const n = Math.max(2, ...rows.map((r) => Number(r[col('n_options')]) || 2));
    const none = { models: [], items: [], rowsPerCell: 1, stride: 0 };
    return { ...base, ...none, kmax: Math.min(n, MAX_OPTIONS), idChars: meanLength(ids) };
  }
  const [m, i] = [col('model'), col('item')];
  const models: string[] = [];
  const items: string[] = [];
  let kmax = 2;
  const seen = new Set<string>();
  let pairRuns = 0;
  let prev = '';
  for (const r of rows) {
    const pair = `${r[m]}\u0000${r[i]}`;
    if (pair !== prev) pairRuns++;
    prev = pair;
    if (format === 'long') kmax = Math.max(kmax, labelIndex(r[col('option')] ?? '') + 1);
    if (format === 'long' && seen.has(pair)) continue;
    seen.add(pair);
    models.push(r[m]);
    items.push(r[i]);
  }
  // Long rows of a cell are normally adjacent; when shuffled, few cells show all
  // their options in the head, so assume at least the mean of 2..kmax options.
  let rowsPerCell = models.length > 0 ? rows.length / models.length : 1;
  if (format === 'long' && pairRuns > models.length)
    rowsPerCell = Math.max(rowsPerCell, (Math.min(kmax, MAX_OPTIONS) + 2) / 2);
  const optionCols = header.filter((h) => /^(p_|logp_)?[A-J]$/.test(h));
  const stride = format === 'wide' ? optionCols.length : 1;
  if (format === 'wide')
    for (const h of optionCols) kmax = Math.max(kmax, labelIndex(h.slice(-1)) + 1);
  return {
    ...base,
    models,
    items,
    rowsPerCell,
    kmax: Math.min(kmax, MAX_OPTIONS),
    stride,
    idChars: meanLength(models) + meanLength(items),
  };
}

/** Cells of a harness log: one per line, all of one model. */
function jsonlSample(text: string, fileName: string): Omit<HeadSample, 'complete'> {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const task = harnessTaskName(fileName);
  const items: string[] = [];
  let kmax = 2;
  for (const line of lines) {
    let rec: { doc_id?: unknown; filtered_resps?: unknown; resps?: unknown } = {};
    try {
      rec = JSON.parse(line);
    } catch {
      // A damaged line still counts as a row; the loader will report it.
    }
    const resps = rec?.filtered_resps ?? rec?.resps;
    if (Array.isArray(resps)) kmax = Math.max(kmax, Math.min(resps.length, MAX_OPTIONS));
    items.push(`${task}/${String(rec?.doc_id ?? items.length)}`);
  }
  return {
    rows: lines.length,
    headerBytes: 0,
    bodyBytes: utf8Bytes(text),
    models: items.map(() => ''),
    items,
    rowsPerCell: 1,
    kmax,
    stride: MAX_OPTIONS,
    idChars: meanLength(items),
  };
}

/** Reads the head of a file of the given format. */
export function sampleHead(
  fileName: string,
  fileSize: number,
  head: string,
  format: FileFormat,
): HeadSample {
  const { text, complete } = completeLines(head, fileSize);
  const s = format === 'harness' ? jsonlSample(text, fileName) : csvSample(text, format);
  return { ...s, complete };
}
