/**
 * lm-evaluation-harness sample logs (`samples_<task>_<datetime>.jsonl`, one JSON
 * object per line). Each line is one item for one model: `filtered_resps` (or
 * `resps`) holds a `[loglikelihood, is_greedy]` pair per choice, `target` the gold
 * index. The option distribution is the softmax of the log-likelihoods.
 *
 * Items are named by `doc.id`, else by a stable hash of the question (see
 * `harnessDoc.ts`); option texts come from `doc.choices`. A subtask (mmlu_anatomy)
 * is kept per item while its benchmark is the parent (mmlu).
 *
 * Filters: the harness writes every sample once per filter of the task
 * (`filter: "none"`, `"strict-match"`, ...), all of the first filter first. The
 * first filter in the file is kept and the others are dropped with a note: for
 * log-likelihood tasks every filter sees the same log-likelihoods.
 *
 * Length normalisation divides each log-likelihood by the length in characters
 * (Unicode code points) of its scored continuation, as the harness's `acc_norm`
 * does. By default it is applied when the task reports `acc_norm` (ARC,
 * HellaSwag), and said so; `lengthNormalise` true or false forces it.
 *
 * Multiple-input tasks (Winogrande): every choice is a different context and
 * one continuation is scored after each, so `target` is that shared
 * continuation, not a choice. The harness takes the gold index from the task's
 * own `doc_to_text`; for Winogrande that is `doc.answer` ("1", "2") over
 * `doc.option1`, `doc.option2`, for WSC273 `doc.label` over `doc.options`, and
 * so they are read here. Any other multiple-input task is refused, naming it:
 * its key would be a guess.
 *
 * Every record's key is checked against the harness's own per-record score
 * (`acc`: argmax of the log-likelihoods is the gold; `acc_norm`: the same after
 * dividing by the choice's length), counted per file in the load report and
 * refused when they disagree beyond a tie (`producerCheck.ts`).
 *
 * Generative runs (answers written out, `filtered_resps: ["B"]` or `["18"]`,
 * generation settings in `arguments`, or `output_type: generate_until` in the
 * results file) hold no per-option values: the file is skipped with a
 * one-sentence note. So are single-continuation log-likelihood tasks (one
 * response per record, no choices). The older layout (one JSON array of
 * records in `<model_args>_<task>.jsonl`, early 2024) is refused by name.
 */
import { RowBlock } from './block.ts';
import type { DatasetBuilder } from './builder.ts';
import { finishingWith, type ChunkParser, type StreamOptions } from './csv.ts';
import {
  continuations,
  docChoices,
  docQuestion,
  generativeAnswer,
  harnessItemId,
  isRec,
  multipleInputGold,
  sharedContinuation,
  unwrap,
  usesAccNorm,
  type Rec,
} from './harnessDoc.ts';
import { harnessLogName } from './harnessRuns.ts';
import { JsonlChunkReader } from './jsonl.ts';
import { checkNote, ProducerTally } from './producerCheck.ts';
import { checkDeclared, labelIndex, readNumber } from './values.ts';
import { DataError, MAX_OPTIONS, OPTION_LABELS, quoted } from './types.ts';

/** Options for one harness samples file. */
export interface HarnessOptions extends StreamOptions {
  /** Model (LLM) name for every line of the file. */
  model: string;
  /** Task name; default: from the file name `samples_<task>_<datetime>.jsonl`. */
  task?: string;
  /** Benchmark of the task's items (its parent group); default: the task. */
  benchmark?: string;
  /** Divide log-likelihoods by choice text length; default: when the task reports acc_norm. */
  lengthNormalise?: boolean;
  /** The task's `output_type` from the run's results file, when known. */
  outputType?: string;
}

/** Task name from a samples file name (directories are ignored). */
export function harnessTaskName(fileName: string): string {
  return harnessLogName(fileName).task;
}

type Err = (msg: string, column: string, expected?: string) => DataError;
type At = { file: string; line: number; column: string };

/** The message for the older layout (checked at the start of the file). */
export const OLDER_LAYOUT =
  'older lm-evaluation-harness layout (a JSON array of every sample record in one file, ' +
  'as lm-eval 0.4 wrote <model_args>_<task>.jsonl until early 2024): not read; ' +
  're-run with a current lm-eval and --log_samples, which writes one record per line in ' +
  'samples_<task>_<datetime>.jsonl';

/** One record as read: its item, option count, key, values and texts. */
interface Parsed {
  itemId: string;
  n: number;
  key: number;
  /** Raw log-likelihoods, one per choice. */
  raw: Float64Array;
  /** Length of each choice's text (for acc_norm), or null when unknown. */
  lengths: number[] | null;
  texts: string[] | null;
  question: string;
  multipleInput: boolean;
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
  const reader = new HarnessFileReader(file, builder, opts);
  const jsonl = new JsonlChunkReader(file, (v, line) => reader.onRecord(v, line), opts);
  let started = false;
  return finishingWith(
    {
      push(chunk, bytes) {
        if (!started && chunk.trim() !== '') {
          started = true;
          if (
            chunk
              .trimStart()
              .replace(/^\uFEFF/, '')
              .startsWith('[')
          )
            throw new DataError(OLDER_LAYOUT, file, 1);
        }
        jsonl.push(chunk, bytes);
      },
      finish: () => jsonl.finish(),
      get rows() {
        return jsonl.rows;
      },
    },
    (rows) => reader.finish(rows),
  );
}

/**
 * Reads one file's records given as values (the rows of harness details in
 * Parquet), exactly as `createHarnessParser` reads the same records written as
 * JSON lines (record n on line n): each value must be what `JSON.parse` would
 * give (plain objects and arrays, numbers, strings, booleans, null).
 */
export function readHarnessRecords(
  file: string,
  builder: DatasetBuilder,
  opts: HarnessOptions,
  records: readonly unknown[],
): void {
  const reader = new HarnessFileReader(file, builder, opts);
  for (let n = 0; n < records.length; n++) {
    opts.signal?.throwIfAborted();
    reader.onRecord(records[n], n + 1);
  }
  if (records.length === 0) throw new DataError('the file is empty', file);
  reader.finish(records.length);
}

/** The state of one samples file while it is read. */
class HarnessFileReader {
  private readonly task: string;
  private readonly bench: string;
  private readonly block: RowBlock;
  private readonly vals = new Float64Array(MAX_OPTIONS);
  private readonly j: number;
  private normalise: boolean | undefined;
  private keptFilter: string | undefined;
  private readonly dropped = new Map<string, number>();
  /** Why the whole file is skipped (generative, one continuation), once known. */
  private skipNote: { line?: number; message: string } | null = null;
  private readonly hashSeen = new Map<string, number>();
  private readonly acc = new ProducerTally('the harness', 'acc');
  private readonly accNorm = new ProducerTally('the harness', 'acc_norm');

  constructor(
    private readonly file: string,
    private readonly builder: DatasetBuilder,
    private readonly opts: HarnessOptions,
  ) {
    this.task = opts.task ?? harnessTaskName(file);
    this.bench = opts.benchmark ?? this.task;
    this.block = new RowBlock(file, 'harness', MAX_OPTIONS);
    this.block.valueColumn = 'filtered_resps';
    this.j = builder.llm(opts.model);
    this.normalise = opts.lengthNormalise;
    const type = opts.outputType;
    if (type && type !== 'multiple_choice')
      this.skipNote = {
        message:
          `skipped: task '${this.task}' has output_type '${type}' in the run's results file, ` +
          'so its records hold no per-option log-likelihoods; only multiple_choice tasks are read',
      };
  }

  onRecord(value: unknown, line: number): void {
    if (this.skipNote) return;
    const err: Err = (msg, column, expected) =>
      new DataError(msg, this.file, line, column, expected);
    if (!isRec(value)) throw err('line is not a JSON object', 'doc_id', 'a JSON object');
    const filter = typeof value.filter === 'string' ? value.filter : '';
    this.keptFilter ??= filter;
    if (filter !== this.keptFilter) {
      this.dropped.set(filter, (this.dropped.get(filter) ?? 0) + 1);
      return;
    }
    const column = 'filtered_resps' in value ? 'filtered_resps' : 'resps';
    const resps = value[column];
    if (!Array.isArray(resps)) throw err('missing filtered_resps', column, 'an array per choice');
    if (this.skipsFile(value, resps, line)) return;
    const p = this.parse(value, resps, { file: this.file, line, column }, err);
    if (p === null) return;
    if (!p.multipleInput) this.normalise ??= usesAccNorm(value);
    this.check(value, p, line);
    this.add(p, line);
  }

  /** True (and the note kept) when this record shows the file holds no choices to read. */
  private skipsFile(rec: Rec, resps: unknown[], line: number): boolean {
    const answer = generativeAnswer(rec, resps);
    if (answer !== null)
      this.skipNote = {
        line,
        message:
          `skipped: task '${this.task}' was run generatively (the model wrote its answer, ` +
          `${quoted(answer)}, instead of scoring each choice), so there are no ` +
          'per-option log-likelihoods; run its multiple-choice (log-likelihood) variant instead',
      };
    else if (resps.length === 1)
      this.skipNote = {
        line,
        message:
          `skipped: task '${this.task}' scores one continuation per record (the log-likelihood ` +
          'of its target), not a choice among options, so there are no options to model',
      };
    return this.skipNote !== null;
  }

  /** Reads one record's item, key and values; null when its item is sampled out. */
  private parse(rec: Rec, resps: unknown[], at: At, err: Err): Parsed | null {
    const { column } = at;
    let itemId = harnessItemId(rec, this.task);
    if (!('doc_id' in rec) && itemId.startsWith(`${this.task}/d`)) {
      // No doc_id: the same document twice is numbered in file order.
      const seen = (this.hashSeen.get(itemId) ?? 0) + 1;
      this.hashSeen.set(itemId, seen);
      if (seen > 1) itemId = `${itemId}-${seen}`;
    }
    if (this.builder.skipItem(itemId)) return null;
    const n = resps.length;
    if (n < 2 || n > MAX_OPTIONS)
      throw err(`${n} choices; n_options must be in 2..${MAX_OPTIONS}`, column, '2 to 10 choices');
    const raw = new Float64Array(n);
    for (let k = 0; k < n; k++) raw[k] = logLikelihood(resps[k], k, at, err);
    const shared = sharedContinuation(rec);
    if (shared !== null) return this.multipleInput(rec, { itemId, n, raw }, shared, err);
    const shown = docChoices(rec);
    const scored = continuations(rec) ?? shown;
    const texts = shown && shown.length === n ? shown : scored;
    const key = readTarget(rec.target, n, texts, err);
    const lengths = scored && scored.length === n ? scored.map((t) => [...t].length) : null;
    return {
      itemId,
      n,
      key,
      raw,
      lengths,
      texts,
      question: docQuestion(rec),
      multipleInput: false,
    };
  }

  /** A multiple-input record: the gold from the document as the task reads it, or a refusal. */
  private multipleInput(
    rec: Rec,
    p: { itemId: string; n: number; raw: Float64Array },
    shared: string,
    err: Err,
  ): Parsed {
    const gold = multipleInputGold(rec, p.n);
    if (!gold)
      throw err(
        `task '${this.task}' is a multiple-input task (each choice is a different context and ` +
          `the continuation ${quoted(shared)} is shared, so target names no choice); the harness ` +
          "takes its gold index from the task's own doc_to_text, which this reader knows for " +
          'Winogrande-style documents (doc.option1, doc.option2, ... and doc.answer "1", "2", ...) ' +
          'and WSC273-style ones (doc.options and doc.label), and this record is neither: its ' +
          'key would be a guess, so the file is refused',
        'target',
        'doc.option1..n and doc.answer, or doc.options and doc.label',
      );
    if (this.normalise && this.opts.lengthNormalise)
      throw err(
        `task '${this.task}' is a multiple-input task: its choices are contexts, so ` +
          'lengthNormalise (dividing by the continuation length) does not apply',
        'arguments',
      );
    this.normalise = false;
    const sentence = docQuestion(rec);
    return {
      ...p,
      key: gold.key,
      lengths: null,
      texts: gold.options,
      question: sentence,
      multipleInput: true,
    };
  }

  /** Compares the key with the record's own acc and acc_norm, each with its normalisation. */
  private check(rec: Rec, p: Parsed, line: number): void {
    const score = (x: unknown, column: string) => {
      const v = typeof x === 'number' ? x : typeof x === 'boolean' ? Number(x) : NaN;
      if (v === 0 || v === 1 || Number.isNaN(v)) return v;
      throw new DataError(
        `the harness's ${column} here is ${v}, not 0 or 1: the task scores something other ` +
          'than whether the keyed choice has the largest log-likelihood (truthfulqa_mc2, for ' +
          'one, scores the probability mass on several true choices), so one key per item ' +
          'would misstate it; the file is refused',
        this.file,
        line,
        column,
        `${column} 0 or 1 on every record`,
      );
    };
    const acc = score(rec.acc, 'acc');
    if (!Number.isNaN(acc)) this.acc.add(p.raw, p.n, p.key, acc, line);
    const accNorm = score(rec.acc_norm, 'acc_norm');
    if (!Number.isNaN(accNorm) && p.lengths && !p.multipleInput && p.lengths.every((l) => l > 0)) {
      const v = p.raw.map((x, k) => x / p.lengths![k]);
      this.accNorm.add(v, p.n, p.key, accNorm, line);
    }
  }

  /** Adds the record's cell with the values the reader uses (length-normalised or not). */
  private add(p: Parsed, line: number): void {
    const { builder, file } = this;
    const where = { file, line };
    if (this.normalise && !p.lengths)
      throw new DataError(
        'lengthNormalise needs the choice texts, but this line has neither arguments nor doc.choices for every choice',
        file,
        line,
        'arguments',
        'arguments or doc.choices with one text per choice',
      );
    for (let k = 0; k < p.n; k++) {
      const len = this.normalise ? p.lengths![k] : 1;
      if (len === 0)
        throw new DataError(
          `choice ${k} has empty text; cannot length-normalise`,
          file,
          line,
          'arguments',
        );
      this.vals[k] = p.raw[k] / len;
    }
    this.vals.fill(NaN, p.n);
    const i = builder.item(p.itemId);
    builder.setN(i, p.n, where);
    builder.setKey(i, p.key, where);
    builder.setBenchmark(i, this.bench, where);
    if (this.bench !== this.task) builder.setSubtask(i, this.task);
    if (builder.itemText[i] === null && p.texts && p.texts.length === p.n)
      builder.itemText[i] = { question: p.question, options: p.texts };
    this.block.add(this.j, i, line, this.vals);
  }

  finish(rows: number): void {
    const { builder, file } = this;
    if (this.skipNote) {
      builder.skip({
        file,
        line: this.skipNote.line,
        code: 'other',
        message: this.skipNote.message,
      });
      return;
    }
    this.acc.throwIfDisagreed(file, 'acc');
    this.accNorm.throwIfDisagreed(file, 'acc_norm');
    this.noteDropped();
    const [acc, accNorm] = [this.acc.result(), this.accNorm.result()];
    // The load report carries the check of the metric the reader's values match.
    const check = (this.normalise ? accNorm : acc) ?? acc ?? accNorm;
    const checked = [acc, accNorm].filter((c) => c !== null);
    builder.warn({
      file,
      code: checked.length > 0 ? 'keycheck' : 'other',
      message:
        checked.length > 0
          ? checked.map(checkNote).join('; ')
          : 'keys not checked: the records carry no per-record acc or acc_norm from the harness',
    });
    const reason = this.reason();
    this.block.setKind('logprob', reason, !this.normalise);
    builder.addBlock(this.block, {
      file,
      format: 'harness',
      valueKind: 'logprob',
      valueKindReason: reason,
      rows,
      ...(check ? { producerCheck: check } : {}),
    });
  }

  private noteDropped(): void {
    if (this.dropped.size === 0) return;
    const total = [...this.dropped.values()].reduce((a, b) => a + b, 0);
    this.builder.warn({
      file: this.file,
      code: 'other',
      count: total,
      message:
        `kept filter ${quoted(this.keptFilter ?? '')} (the first in the file); ${total} records ` +
        `under other filters (${[...this.dropped.keys()].map((f) => quoted(f)).join(', ')}) were dropped`,
    });
  }

  private reason(): string {
    return this.normalise
      ? `harness log-likelihoods divided by choice length (${
          this.opts.lengthNormalise
            ? 'lengthNormalise'
            : 'the task reports acc_norm, so length-normalised as it'
        }), then softmax`
      : 'harness log-likelihoods, softmax';
  }
}

/** One choice's log-likelihood from its `[value, is_greedy]` pair (or a bare value). */
function logLikelihood(e: unknown, k: number, at: At, err: Err): number {
  const v0 = unwrap(e);
  const v = typeof v0 === 'number' || typeof v0 === 'string' ? readNumber(String(v0), at) : NaN;
  if (Number.isNaN(v)) throw err(`choice ${k} has no log-likelihood`, at.column, 'a number');
  checkDeclared(v, 'logprob', at);
  return v;
}

/** The one choice whose text is `t`; two choices with that text cannot say which is keyed. */
function textIndex(t: string, texts: string[], err: Err): number {
  const at = texts.flatMap((x, k) => (x.trim() === t ? [k] : []));
  if (at.length > 1)
    throw err(
      `target ${quoted(t)} is the text of choices ${at.map((k) => OPTION_LABELS[k]).join(' and ')}, ` +
        'so it does not say which one is keyed',
      'target',
      'a target that names one choice',
    );
  return at.length === 1 ? at[0] : -1;
}

/** The gold index from `target`: a number, a numeric string, a label A..J, or a choice text. */
function readTarget(target: unknown, n: number, texts: string[] | null, err: Err): number {
  let k = -1;
  if (typeof target === 'number') k = target;
  else if (typeof target === 'string') {
    const t = target.trim();
    if (/^\d+$/.test(t)) k = Number(t);
    else if (labelIndex(t) >= 0) k = labelIndex(t);
    else if (texts) k = textIndex(t, texts, err);
    if (k < 0)
      throw err(`target ${quoted(t)} is not a choice index, label or choice text`, 'target');
  } else throw err('missing or unsupported target', 'target', 'the gold choice index');
  if (!Number.isInteger(k) || k < 0 || k >= n)
    throw err(`target ${k} is beyond the ${n} choices`, 'target', `an index in 0..${n - 1}`);
  return k;
}
