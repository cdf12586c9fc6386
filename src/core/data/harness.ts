/**
 * lm-evaluation-harness sample logs (`samples_<task>_<datetime>.jsonl`, one JSON
 * object per line). Each line is one item for one model: `filtered_resps` (or
 * `resps`) holds a `[loglikelihood, is_greedy]` pair per choice, `target` the gold
 * index, `doc_id` the item (item id `<task>/<doc_id>`). The option distribution
 * is the softmax of the log-likelihoods.
 *
 * Length normalisation (`lengthNormalise`) divides each log-likelihood by the
 * length in characters (Unicode code points) of its choice text, as the harness's
 * `acc_norm` does. The text is the scored continuation from `arguments` (old
 * `[context, continuation]` pairs or new `{gen_args_k: {arg_0, arg_1}}` objects)
 * with one leading space (the harness's default target delimiter) removed; when
 * `arguments` is absent, `doc.choices` (a string array or `{text: [...]}`).
 */
import { RowBlock } from './block.ts';
import type { DatasetBuilder } from './builder.ts';
import type { ChunkParser, StreamOptions } from './csv.ts';
import { JsonlChunkReader } from './jsonl.ts';
import { checkDeclared, labelIndex, readNumber } from './values.ts';
import { DataError, MAX_OPTIONS, quoted } from './types.ts';

/** Options for one harness samples file. */
export interface HarnessOptions extends StreamOptions {
  /** Model (LLM) name for every line of the file. */
  model: string;
  /** Task name; default: from the file name `samples_<task>_<datetime>.jsonl`. */
  task?: string;
  /** Divide log-likelihoods by choice text length before the softmax. */
  lengthNormalise?: boolean;
}

/** Task name from a samples file name (directories are ignored). */
export function harnessTaskName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  const m =
    /^samples_(.+)_(\d{4}-\d{2}-\d{2}T[\d:.-]+)\.jsonl$/.exec(base) ??
    /^samples_(.+)\.jsonl$/.exec(base);
  return m ? m[1] : base.replace(/\.jsonl?$/, '');
}

type Rec = Record<string, unknown>;
const isRec = (x: unknown): x is Rec => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Choice texts from `arguments` or `doc.choices`, or null. */
function choiceTexts(rec: Rec): string[] | null {
  const args = rec.arguments;
  const list = Array.isArray(args)
    ? args
    : isRec(args)
      ? Object.keys(args)
          .sort((a, b) => Number(a.replace(/\D/g, '')) - Number(b.replace(/\D/g, '')))
          .map((k) => args[k])
      : null;
  if (list) {
    const conts = list.map((a) => (Array.isArray(a) ? a[1] : isRec(a) ? a.arg_1 : undefined));
    if (conts.every((c) => typeof c === 'string'))
      return (conts as string[]).map((c) => (c.startsWith(' ') ? c.slice(1) : c));
  }
  const doc = rec.doc;
  const ch = isRec(doc) ? doc.choices : undefined;
  const texts = isRec(ch) ? ch.text : ch;
  if (Array.isArray(texts) && texts.every((t) => typeof t === 'string')) return texts as string[];
  return null;
}

/** Unwraps `["-1.2","False"]`, `[["-1.2","False"]]` or a bare number to the log-likelihood. */
function unwrap(e: unknown): unknown {
  while (Array.isArray(e)) e = e[0];
  return e;
}

/**
 * Creates an incremental parser for one samples file of one model; `finish()`
 * adds its cells to `builder`.
 */
export function createHarnessParser(
  file: string,
  builder: DatasetBuilder,
  opts: HarnessOptions,
): ChunkParser {
  const task = opts.task ?? harnessTaskName(file);
  const block = new RowBlock(file, 'harness', MAX_OPTIONS);
  block.valueColumn = 'filtered_resps';
  const vals = new Float64Array(MAX_OPTIONS);
  const j = builder.llm(opts.model);

  const onRecord = (value: unknown, line: number) => {
    const err = (msg: string, column: string, expected?: string) =>
      new DataError(msg, file, line, column, expected);
    if (!isRec(value)) throw err('line is not a JSON object', 'doc_id', 'a JSON object');
    const docId = value.doc_id;
    if (typeof docId !== 'number' && typeof docId !== 'string')
      throw err('missing doc_id', 'doc_id', 'a number or string doc_id');
    const itemId = `${task}/${docId}`;
    if (builder.skipItem(itemId)) return;
    const column = 'filtered_resps' in value ? 'filtered_resps' : 'resps';
    const resps = value[column];
    if (!Array.isArray(resps)) throw err('missing filtered_resps', column, 'an array per choice');
    const n = resps.length;
    if (n < 2 || n > MAX_OPTIONS)
      throw err(`${n} choices; n_options must be in 2..${MAX_OPTIONS}`, column, '2 to 10 choices');
    const texts = choiceTexts(value);
    if (opts.lengthNormalise && (!texts || texts.length !== n))
      throw err(
        'lengthNormalise needs the choice texts, but this line has neither arguments nor doc.choices for every choice',
        'arguments',
        'arguments or doc.choices with one text per choice',
      );
    for (let k = 0; k < n; k++) {
      const raw = unwrap(resps[k]);
      const at = { file, line, column };
      const v =
        typeof raw === 'number' || typeof raw === 'string' ? readNumber(String(raw), at) : NaN;
      if (Number.isNaN(v)) throw err(`choice ${k} has no log-likelihood`, column, 'a number');
      checkDeclared(v, 'logprob', at);
      const len = opts.lengthNormalise ? [...texts![k]].length : 1;
      if (len === 0) throw err(`choice ${k} has empty text; cannot length-normalise`, 'arguments');
      vals[k] = v / len;
    }
    vals.fill(NaN, n);
    const key = readTarget(value.target, n, texts, err);
    const i = builder.item(itemId);
    const where = { file, line };
    builder.setN(i, n, where);
    builder.setKey(i, key, where);
    builder.setBenchmark(i, task, where);
    if (builder.itemText[i] === null && texts && texts.length === n) {
      const doc = value.doc;
      const q = isRec(doc) && typeof doc.question === 'string' ? doc.question : '';
      builder.itemText[i] = { question: q, options: texts };
    }
    block.add(j, i, line, vals);
  };

  const reader = new JsonlChunkReader(file, onRecord, opts);
  return {
    push: (chunk, bytes) => reader.push(chunk, bytes),
    finish() {
      reader.finish();
      const reason = opts.lengthNormalise
        ? 'harness log-likelihoods divided by choice length (lengthNormalise), then softmax'
        : 'harness log-likelihoods, softmax';
      block.setKind('logprob', reason, !opts.lengthNormalise);
      builder.addBlock(block, {
        file,
        format: 'harness',
        valueKind: 'logprob',
        valueKindReason: reason,
        rows: reader.rows,
      });
    },
    get rows() {
      return reader.rows;
    },
  };
}

/** The gold index from `target`: a number, a numeric string, a label A..J, or a choice text. */
function readTarget(
  target: unknown,
  n: number,
  texts: string[] | null,
  err: (msg: string, column: string, expected?: string) => DataError,
): number {
  let k = -1;
  if (typeof target === 'number') k = target;
  else if (typeof target === 'string') {
    const t = target.trim();
    if (/^\d+$/.test(t)) k = Number(t);
    else if (labelIndex(t) >= 0) k = labelIndex(t);
    else if (texts) k = texts.findIndex((x) => x.trim() === t);
    if (k < 0)
      throw err(`target ${quoted(t)} is not a choice index, label or choice text`, 'target');
  } else throw err('missing or unsupported target', 'target', 'the gold choice index');
  if (!Number.isInteger(k) || k < 0 || k >= n)
    throw err(`target ${k} is beyond the ${n} choices`, 'target', `an index in 0..${n - 1}`);
  return k;
}
