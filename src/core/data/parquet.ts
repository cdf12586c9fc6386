/**
 * Per-sample Parquet details, read with hyparquet:
 *
 * - lighteval / Open LLM Leaderboard v1 (`details_<task>_<datetime>.parquet`):
 *   `example`, `choices`, `gold_index` (or `gold`) and `predictions`, one
 *   log-likelihood per choice. In lighteval 0.7 every column is a string of
 *   Python literal text (`"[(-0.0009, True), …]"`); from 0.11 they are nested
 *   values. There is no model or item column: the model is the folder, the item
 *   a hash of the example and choices.
 * - Meta's published eval details: `input_question`, `input_choice_list`,
 *   `input_correct_responses`, `output_choice_negative_log_likelihoods`
 *   (`raw` and normalised; the raw values are negated to log-likelihoods).
 * - lm-evaluation-harness details served as Parquet (`doc_id`, `filtered_resps`):
 *   each row goes through the harness reader.
 */
import { parquetMetadata, parquetReadObjects, parquetSchema, type FileMetaData } from 'hyparquet';
import type { DatasetBuilder } from './builder.ts';
import { readHarnessRecords } from './harness.ts';
import { stableHash } from './harnessDoc.ts';
import { parentBenchmark } from './harnessRuns.ts';
import { fastColumn } from './parquetColumns.ts';
import { PARQUET_PARSERS } from './parquetLeaves.ts';
import { pyScorePairs, pyStringList, pyValue } from './pyLiteral.ts';
import { RecordSink } from './records.ts';
import { labelIndex } from './values.ts';
import { DataError } from './types.ts';

type Row = Record<string, unknown>;

/** Task and benchmark from `details_<suite>|<task>|<shots>_<datetime>.parquet`. */
export function lightevalTask(file: string): { task: string; benchmark: string } {
  const base = (file.split(/[\\/]/).pop() ?? file).replace(/\.parquet$/i, '');
  const stem = base.replace(/^details_/, '').replace(/_\d{4}-\d{2}-\d{2}T[\d:.-]+$/, '');
  const parts = stem.split('|');
  const task = parts.length >= 2 ? parts[1] : stem;
  const family = task.split(':')[0];
  const benchmark = /^hendrycksTest-/.test(task) ? 'mmlu' : family;
  return { task, benchmark };
}

const first = (v: unknown): unknown => (Array.isArray(v) ? first(v[0]) : v);
const num = (v: unknown): number =>
  typeof v === 'number'
    ? v
    : typeof v === 'bigint' || (typeof v === 'string' && v.trim() !== '')
      ? Number(v)
      : NaN;

/**
 * The harness columns the harness reader looks at: `resps` only without
 * `filtered_resps`, and the harness's own `acc` and `acc_norm` (the key check).
 */
const HARNESS_COLUMNS = (cols: Set<string>) => [
  'doc_id',
  'doc',
  'target',
  'arguments',
  cols.has('filtered_resps') ? 'filtered_resps' : 'resps',
  'filter',
  'metrics',
  'acc',
  'acc_norm',
];
/** lighteval: `full_prompt` only stands in for a missing `example`; `gold` for `gold_index`. */
const lightevalColumns = (cols: Set<string>) => [
  'predictions',
  'choices',
  cols.has('gold_index') ? 'gold_index' : 'gold',
  cols.has('example') ? 'example' : 'full_prompt',
];
const META_COLUMNS = [
  'input_choice_list',
  'output_choice_negative_log_likelihoods',
  'input_correct_responses',
  'input_question',
  'input_question_hash',
  'task_name',
  'benchmark_label',
  'subtask_name',
];

/** Reads one Parquet file of any of the three kinds. */
export async function readParquet(
  file: string,
  bytes: Uint8Array,
  model: string | undefined,
  builder: DatasetBuilder,
): Promise<number> {
  // The whole file is in memory already (docs.ts): its own buffer is used, not a copy.
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  const buf = (whole ? bytes : bytes.slice()).buffer as ArrayBuffer;
  const asyncBuf = {
    byteLength: buf.byteLength,
    slice: (s: number, e?: number) => buf.slice(s, e),
  };
  const unreadable = (e: unknown) =>
    new DataError(`not a readable Parquet file: ${(e as Error).message}`, file);
  let metadata: FileMetaData;
  try {
    metadata = parquetMetadata(buf);
  } catch (e) {
    throw unreadable(e);
  }
  const cols = new Set(parquetSchema(metadata).children.map((c) => c.element.name));
  /**
   * The harness's columns (nested: doc a struct, arguments a struct of structs,
   * filtered_resps a list of lists) read by parquetColumns.ts where their shape
   * allows, the rest by hyparquet; rows as parquetReadObjects gives them.
   */
  const harnessColumns = async (use: string[]) => {
    const own = new Map<string, unknown[]>();
    for (const c of use.filter((c) => cols.has(c))) {
      let values: unknown[] | null;
      try {
        values = fastColumn(buf, metadata, c);
      } catch (e) {
        throw unreadable(e);
      }
      if (values) own.set(c, values);
    }
    const rest = use.filter((c) => !own.has(c));
    const rows: Row[] =
      rest.some((c) => cols.has(c)) || own.size === 0
        ? await read(rest)
        : Array.from({ length: Number(metadata.num_rows) }, () => ({}));
    for (const [c, values] of own) for (let r = 0; r < rows.length; r++) rows[r][c] = values[r];
    return rows;
  };
  // Only the columns a reader uses are decoded: details also hold token ids, prompts
  // and hashes (lighteval's input_tokens/cont_tokens are most of a file).
  const read = async (use: string[]) => {
    try {
      const columns = use.filter((c) => cols.has(c));
      return (await parquetReadObjects({
        file: asyncBuf,
        metadata,
        columns,
        parsers: PARQUET_PARSERS,
      })) as Row[];
    } catch (e) {
      throw unreadable(e);
    }
  };
  if (cols.has('filtered_resps') || (cols.has('doc_id') && cols.has('resps')))
    return harnessRows(file, await harnessColumns(HARNESS_COLUMNS(cols)), model, builder);
  if (!model)
    throw new DataError(
      'cannot tell which model these details belong to',
      file,
      undefined,
      undefined,
      'the file inside a folder named after the model',
    );
  if (cols.has('output_choice_negative_log_likelihoods'))
    return metaRows(file, await read(META_COLUMNS), model, builder);
  if (cols.has('predictions') && (cols.has('gold_index') || cols.has('gold')))
    return lightevalRows(file, await read(lightevalColumns(cols)), model, builder);
  throw new DataError(
    `unrecognised Parquet columns: ${[...cols].slice(0, 12).join(', ')}`,
    file,
    undefined,
    undefined,
    'lighteval details (predictions, gold_index), Meta eval details ' +
      '(output_choice_negative_log_likelihoods) or harness samples (filtered_resps)',
  );
}

function lightevalRows(file: string, rows: Row[], model: string, builder: DatasetBuilder): number {
  const sink = new RecordSink(file, 'lighteval', builder);
  const { task, benchmark } = lightevalTask(file);
  const parse = (r: number, field: string, v: unknown) => {
    try {
      return pyValue(v);
    } catch (e) {
      throw sink.error(r, field, `cannot read ${field}: ${(e as Error).message}`);
    }
  };
  const predictionValues = (r: number, preds: unknown) => {
    if (!Array.isArray(preds))
      throw sink.error(r, 'predictions', 'not a list', 'one log-likelihood per choice');
    return preds.map((p) => num(first(p)));
  };
  rows.forEach((row, n) => {
    const r = n + 1;
    // Most predictions are Python's own print of (number, bool) tuples: read at once.
    const printed = typeof row.predictions === 'string' ? pyScorePairs(row.predictions) : null;
    const values = printed ?? predictionValues(r, parse(r, 'predictions', row.predictions));
    if (values.some(Number.isNaN)) {
      sink.drop('generative records (predictions without log-likelihoods)');
      return;
    }
    const listed = typeof row.choices === 'string' ? pyStringList(row.choices) : null;
    const choices = listed ?? parse(r, 'choices', row.choices);
    const options = Array.isArray(choices) ? choices.map((c) => String(c).trim()) : undefined;
    const goldField = 'gold_index' in row ? 'gold_index' : 'gold';
    const key = num(first(parse(r, goldField, row[goldField])));
    if (!(key >= 0 && key < values.length))
      throw sink.error(r, goldField, `${String(row[goldField])} is not a choice index`);
    const example = typeof row.example === 'string' ? row.example : String(row.full_prompt ?? '');
    const item = `${task}/q${stableHash([example, ...(options ?? [])].join('\u0000'))}`;
    sink.add(
      { model, item, benchmark, subtask: task, key, values, question: example, options },
      r,
      'predictions',
      'logprob',
    );
  });
  sink.finish(
    'logprob',
    'lighteval predictions (log-likelihood per choice), softmax',
    `task ${task}`,
  );
  return rows.length;
}

/** The keyed index from `input_correct_responses` (a label, "Answer: B", or a choice text). */
function metaKey(resp: unknown, labels: string[], texts: string[]): number {
  const s = String(first(resp) ?? '').trim();
  const bare = s
    .replace(/^(the )?(correct )?answer( is)?:?\s*/i, '')
    .replace(/[.)]$/, '')
    .trim();
  let k = labels.indexOf(bare);
  if (k < 0 && bare.length === 1) k = labelIndex(bare);
  if (k < 0) k = texts.findIndex((t) => t.trim() === s || t.trim() === bare);
  return k;
}

function metaRows(file: string, rows: Row[], model: string, builder: DatasetBuilder): number {
  const sink = new RecordSink(file, 'meta-evals', builder);
  rows.forEach((row, n) => {
    const r = n + 1;
    const rawList = pyValue(row.input_choice_list);
    const labels = Array.isArray(rawList)
      ? rawList.map((_, k) => String.fromCharCode(65 + k))
      : Object.keys((rawList as Row) ?? {});
    const texts = Array.isArray(rawList)
      ? rawList.map(String)
      : labels.map((l) => String((rawList as Row)[l]));
    const nll = pyValue(row.output_choice_negative_log_likelihoods) as Row | unknown[] | null;
    const raw = Array.isArray(nll) ? nll : (nll as Row | null)?.raw;
    if (!Array.isArray(raw))
      throw sink.error(r, 'output_choice_negative_log_likelihoods', 'no raw list', '{raw: [...]}');
    const key = metaKey(pyValue(row.input_correct_responses), labels, texts);
    if (key < 0)
      throw sink.error(r, 'input_correct_responses', 'the correct response is none of the choices');
    const question = String(row.input_question ?? '');
    const task = String(row.task_name ?? row.benchmark_label ?? 'meta');
    const hash = typeof row.input_question_hash === 'string' ? row.input_question_hash : null;
    const item = `${task}/${hash ?? `q${stableHash([question, ...texts].join('\u0000'))}`}`;
    const subtask = typeof row.subtask_name === 'string' ? row.subtask_name : undefined;
    sink.add(
      {
        model,
        item,
        benchmark: parentBenchmark(task),
        subtask,
        key,
        values: raw.map((v) => -num(v)),
        question,
        options: texts,
      },
      r,
      'output_choice_negative_log_likelihoods',
      'logprob',
    );
  });
  sink.finish(
    'logprob',
    'Meta eval details: raw negative log-likelihoods negated (the normalised ones are not used), softmax',
    'raw NLLs',
  );
  return rows.length;
}

function harnessRows(
  file: string,
  rows: Row[],
  model: string | undefined,
  builder: DatasetBuilder,
): number {
  if (!model) throw new DataError('cannot tell which model this harness log belongs to', file);
  for (const row of rows) asJson(row, '');
  readHarnessRecords(file, builder, { model }, rows);
  return rows.length;
}

/**
 * `v` as `JSON.parse(JSON.stringify(v))` gives it, bigints as numbers (what the
 * harness reader sees in a JSON line): plain objects and arrays are changed in
 * place (no text made and parsed again), dates become their ISO text, other
 * objects (typed arrays) plain objects of their keys, non-finite numbers null,
 * undefined members dropped (null in arrays). Undefined when JSON omits `v`.
 */
export function asJson(v: unknown, key: string): unknown {
  if (v !== null && typeof v === 'object' && typeof (v as Row).toJSON === 'function')
    v = (v as { toJSON(k: string): unknown }).toJSON(key);
  if (typeof v === 'bigint') v = Number(v);
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  // + 0: JSON writes -0 as 0.
  if (typeof v === 'number') return Number.isFinite(v) ? v + 0 : null;
  if (typeof v !== 'object') return undefined;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = asJson(v[i], String(i)) ?? null;
    return v;
  }
  const src = v as Row;
  const inPlace = Object.getPrototypeOf(src) === Object.prototype;
  const out: Row = inPlace ? src : {};
  for (const k of Object.keys(src)) {
    const x = asJson(src[k], k);
    if (x === undefined) {
      if (inPlace) delete out[k];
    } else if (k === '__proto__')
      Object.defineProperty(out, k, {
        value: x,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else out[k] = x;
  }
  return out;
}
