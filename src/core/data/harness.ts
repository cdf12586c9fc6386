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
 * Generative runs (answers written out, `filtered_resps: ["B"]`) hold no
 * per-option values: the file is skipped with a one-sentence note.
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
  unwrap,
  usesAccNorm,
} from './harnessDoc.ts';
import { harnessLogName } from './harnessRuns.ts';
import { JsonlChunkReader } from './jsonl.ts';
import { checkDeclared, labelIndex, readNumber } from './values.ts';
import { DataError, MAX_OPTIONS, quoted } from './types.ts';

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
}

/** Task name from a samples file name (directories are ignored). */
export function harnessTaskName(fileName: string): string {
  return harnessLogName(fileName).task;
}

type Err = (msg: string, column: string, expected?: string) => DataError;

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
  const bench = opts.benchmark ?? task;
  const block = new RowBlock(file, 'harness', MAX_OPTIONS);
  block.valueColumn = 'filtered_resps';
  const vals = new Float64Array(MAX_OPTIONS);
  const j = builder.llm(opts.model);
  let normalise: boolean | undefined = opts.lengthNormalise;
  let keptFilter: string | undefined;
  const dropped = new Map<string, number>();
  let generative: { line: number; answer: string } | null = null;
  const hashSeen = new Map<string, number>();

  const onRecord = (value: unknown, line: number) => {
    if (generative) return;
    const err: Err = (msg, column, expected) => new DataError(msg, file, line, column, expected);
    if (!isRec(value)) throw err('line is not a JSON object', 'doc_id', 'a JSON object');
    const filter = typeof value.filter === 'string' ? value.filter : '';
    keptFilter ??= filter;
    if (filter !== keptFilter) {
      dropped.set(filter, (dropped.get(filter) ?? 0) + 1);
      return;
    }
    const column = 'filtered_resps' in value ? 'filtered_resps' : 'resps';
    const resps = value[column];
    if (!Array.isArray(resps)) throw err('missing filtered_resps', column, 'an array per choice');
    const answer = generativeAnswer(resps);
    if (answer !== null) {
      generative = { line, answer };
      return;
    }
    let itemId = harnessItemId(value, task);
    if (itemId.startsWith(`${task}/q`)) {
      // Two records with the same question and choices: number the repeats in file order.
      const seen = (hashSeen.get(itemId) ?? 0) + 1;
      hashSeen.set(itemId, seen);
      if (seen > 1) itemId = `${itemId}-${seen}`;
    }
    if (builder.skipItem(itemId)) return;
    const n = resps.length;
    if (n < 2 || n > MAX_OPTIONS)
      throw err(`${n} choices; n_options must be in 2..${MAX_OPTIONS}`, column, '2 to 10 choices');
    normalise ??= usesAccNorm(value);
    const shown = docChoices(value);
    const scored = continuations(value) ?? shown;
    if (normalise && (!scored || scored.length !== n))
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
      const len = normalise ? [...scored![k]].length : 1;
      if (len === 0) throw err(`choice ${k} has empty text; cannot length-normalise`, 'arguments');
      vals[k] = v / len;
    }
    vals.fill(NaN, n);
    const texts = shown && shown.length === n ? shown : scored;
    const key = readTarget(value.target, n, texts, err);
    const i = builder.item(itemId);
    const where = { file, line };
    builder.setN(i, n, where);
    builder.setKey(i, key, where);
    builder.setBenchmark(i, bench, where);
    if (bench !== task) builder.setSubtask(i, task);
    if (builder.itemText[i] === null && texts && texts.length === n)
      builder.itemText[i] = { question: docQuestion(value), options: texts };
    block.add(j, i, line, vals);
  };

  return finishingWith(new JsonlChunkReader(file, onRecord, opts), (rows) => {
    if (generative) {
      builder.skip({
        file,
        line: generative.line,
        code: 'other',
        message:
          `skipped: task '${task}' was run generatively (the model wrote its answer, ` +
          `${quoted(generative.answer)}, instead of scoring each choice), so there are no ` +
          'per-option log-likelihoods; run its multiple-choice (log-likelihood) variant instead',
      });
      return;
    }
    if (dropped.size > 0) {
      const total = [...dropped.values()].reduce((a, b) => a + b, 0);
      builder.warn({
        file,
        code: 'other',
        count: total,
        message:
          `kept filter ${quoted(keptFilter ?? '')} (the first in the file); ${total} records ` +
          `under other filters (${[...dropped.keys()].map((f) => quoted(f)).join(', ')}) were dropped`,
      });
    }
    const reason = normalise
      ? `harness log-likelihoods divided by choice length (${
          opts.lengthNormalise
            ? 'lengthNormalise'
            : 'the task reports acc_norm, so length-normalised as it'
        }), then softmax`
      : 'harness log-likelihoods, softmax';
    block.setKind('logprob', reason, !normalise);
    builder.addBlock(block, {
      file,
      format: 'harness',
      valueKind: 'logprob',
      valueKindReason: reason,
      rows: rows,
    });
  });
}

/** The gold index from `target`: a number, a numeric string, a label A..J, or a choice text. */
function readTarget(target: unknown, n: number, texts: string[] | null, err: Err): number {
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
