/**
 * What one lm-evaluation-harness sample record says about its item: the id
 * (`doc.id`, else a stable hash of the question and choices), the question, the
 * option texts (`doc.choices`, else the scored continuations) and whether the
 * run was generative (answers written out, not scored per choice).
 */

export type Rec = Record<string, unknown>;
export const isRec = (x: unknown): x is Rec =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

const strings = (x: unknown): string[] | null =>
  Array.isArray(x) && x.every((t) => typeof t === 'string') ? (x as string[]) : null;

/** `arguments`' keys in the order of their numbers (`gen_args_2` before `gen_args_10`), per key list. */
const argOrders = new Map<string, string[]>();
function argumentOrder(args: Rec): string[] {
  const keys = Object.keys(args);
  const signature = keys.join('\u0000');
  let order = argOrders.get(signature);
  if (!order) {
    const num = new Map(keys.map((k) => [k, Number(k.replace(/\D/g, ''))]));
    order = [...keys].sort((a, b) => num.get(a)! - num.get(b)!);
    if (argOrders.size < 256) argOrders.set(signature, order);
  }
  return order;
}

/** The last record's `arguments` and its list: each record's is asked for up to three times. */
let lastRec: Rec | null = null;
let lastArgs: unknown = null;
let lastList: unknown[] | null = null;

/** The `arguments` list: old `[context, continuation]` pairs or new `{gen_args_k: {arg_0, arg_1}}`. */
function argumentList(rec: Rec): unknown[] | null {
  const args = rec.arguments;
  if (rec === lastRec && args === lastArgs) return lastList;
  const list = Array.isArray(args)
    ? args
    : isRec(args)
      ? argumentOrder(args).map((k) => args[k])
      : null;
  lastRec = rec;
  lastArgs = args;
  lastList = list;
  return list;
}

/** A request's context (the prompt) and the continuation whose log-likelihood was taken. */
const contextOf = (a: unknown): unknown => (Array.isArray(a) ? a[0] : isRec(a) ? a.arg_0 : null);
const continuationOf = (a: unknown): unknown =>
  Array.isArray(a) ? a[1] : isRec(a) ? a.arg_1 : null;

/** One leading space (the harness's target delimiter) removed. */
const undelimited = (c: string) => (c.startsWith(' ') ? c.slice(1) : c);

/** Scored continuations from `arguments`, one leading space (the target delimiter) removed. */
export function continuations(rec: Rec): string[] | null {
  const conts = strings(argumentList(rec)?.map(continuationOf));
  return conts && conts.map(undelimited);
}

/**
 * True when the requests are generations, not scored continuations: the second
 * argument is the generation settings (`{until: [...], ...}`), not a text.
 */
export function generationArguments(rec: Rec): boolean {
  const list = argumentList(rec);
  return list !== null && list.length > 0 && list.every((a) => isRec(continuationOf(a)));
}

/**
 * The shared continuation of a multiple-input record (Winogrande style: every
 * choice is a different context and one continuation is scored after each), or
 * null when the choices are the continuations.
 */
export function sharedContinuation(rec: Rec): string | null {
  const list = argumentList(rec);
  if (!list || list.length < 2) return null;
  const c = continuationOf(list[0]);
  if (typeof c !== 'string' || !list.every((a) => continuationOf(a) === c)) return null;
  // The same context and continuation for every choice is no choice at all, not multiple input.
  if (new Set(list.map(contextOf)).size < 2) return null;
  return undelimited(c);
}

/**
 * The gold index of a multiple-input record where the document says it the way
 * the harness's own task reads it (its `doc_to_text`): Winogrande and XWinograd
 * (`gold_alias`: `doc.answer` "1", "2" names `doc.option1`, `doc.option2`) and
 * WSC273 (`doc_to_text: label`: `doc.label` indexes `doc.options`). Null for any
 * other document (never a guess).
 */
export function multipleInputGold(rec: Rec, n: number): { key: number; options: string[] } | null {
  const doc = isRec(rec.doc) ? rec.doc : {};
  const numbered = Array.from({ length: n }, (_, k) => doc[`option${k + 1}`]);
  const answer = typeof doc.answer === 'number' ? String(doc.answer) : doc.answer;
  if (numbered.every((o) => typeof o === 'string') && typeof answer === 'string') {
    const key = /^\d+$/.test(answer.trim()) ? Number(answer.trim()) - 1 : -1;
    return key >= 0 && key < n ? { key, options: numbered as string[] } : null;
  }
  const options = strings(doc.options);
  const label = doc.label;
  if (options && options.length === n && typeof label === 'number' && Number.isInteger(label))
    return label >= 0 && label < n ? { key: label, options } : null;
  return null;
}

/** `doc.choices` as a string list (`["..."]` or `{text: ["..."]}`), or null. */
export function docChoices(rec: Rec): string[] | null {
  const doc = rec.doc;
  const ch = isRec(doc) ? doc.choices : undefined;
  return strings(isRec(ch) ? ch.text : ch);
}

/**
 * Where tasks keep their question text, in order: `question` (ARC, MMLU,
 * GSM8K), `prompt`, `sentence` (Winogrande), `query` (ARC in some versions,
 * HellaSwag preprocessed), `ctx` (HellaSwag), `problem` (MATH), `goal` (PIQA),
 * `premise` (COPA, XNLI), `passage`, `context`, `text`.
 */
const QUESTION_FIELDS = [
  'question',
  'prompt',
  'sentence',
  'query',
  'ctx',
  'problem',
  'goal',
  'premise',
  'passage',
  'context',
  'text',
];

/**
 * The question text: the first of QUESTION_FIELDS that is a non-empty string,
 * else ''. COPA-style documents (`premise` and `question` "cause" or "effect")
 * give the premise and what is asked of it.
 */
export function docQuestion(rec: Rec): string {
  const doc = isRec(rec.doc) ? rec.doc : {};
  if (typeof doc.premise === 'string' && (doc.question === 'cause' || doc.question === 'effect'))
    return `${doc.premise} (${doc.question === 'cause' ? 'What was the cause?' : 'What happened as a result?'})`;
  for (const k of QUESTION_FIELDS)
    if (typeof doc[k] === 'string' && doc[k] !== '') return doc[k] as string;
  return '';
}

/** A 48-bit FNV-1a-style hash of a string, as 12 hex digits (stable across runs and runtimes). */
export function stableHash(s: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x9e3779b9;
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  const hi = (a >>> 0).toString(16).padStart(8, '0');
  const lo = ((b >>> 0) & 0xffff).toString(16).padStart(4, '0');
  return hi + lo;
}

/** JSON text of a value with object keys sorted at every depth (the same document, however its keys were ordered). */
export function canonicalJson(x: unknown): string {
  if (Array.isArray(x)) return `[${x.map(canonicalJson).join(',')}]`;
  if (isRec(x))
    return `{${Object.keys(x)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(x[k])}`)
      .join(',')}}`;
  return JSON.stringify(typeof x === 'bigint' ? Number(x) : x) ?? 'null';
}

/**
 * The item id: `doc.id` when it is a non-empty string; `<task>/<id>` when it is
 * a number (numbers repeat across tasks); otherwise `<task>/<doc_id>-d<hash>`,
 * the record's position in the task and a hash of the raw document fields (not
 * of the rendered prompt, which carries the few-shot examples and the chat
 * template), so two models run with different templates share the item;
 * `<task>/d<hash>` without a doc_id.
 */
export function harnessItemId(rec: Rec, task: string): string {
  const doc = isRec(rec.doc) ? rec.doc : {};
  const id = doc.id;
  if (typeof id === 'string' && id.trim() !== '') return id.trim();
  if (typeof id === 'number') return `${task}/${id}`;
  const hash = `d${stableHash(canonicalJson(doc))}`;
  const docId = rec.doc_id;
  return typeof docId === 'number' || (typeof docId === 'string' && docId !== '')
    ? `${task}/${docId}-${hash}`
    : `${task}/${hash}`;
}

/** Unwraps `["-1.2","False"]`, `[["-1.2","False"]]` or a bare number to the first value. */
export function unwrap(e: unknown): unknown {
  while (Array.isArray(e)) e = e[0];
  return e;
}

/** True for a `[log-likelihood, is_greedy]` pair (`["-1.2", "False"]`, `[-1.2, false]`). */
function isScorePair(e: unknown): boolean {
  while (Array.isArray(e) && e.length === 1) e = e[0];
  if (!Array.isArray(e) || e.length !== 2) return false;
  const g = e[1];
  return typeof g === 'boolean' || g === 'True' || g === 'False';
}

/**
 * The written answer when the record is from a generative run, else null: the
 * requests carry generation settings, or a response is text that is not a
 * number (`["B"]`), or the record has one response and it is text, numeric or
 * not (`filtered_resps: ["18"]`, a GSM8K answer; a log-likelihood record has a
 * `[value, is_greedy]` pair per choice).
 */
export function generativeAnswer(rec: Rec, resps: unknown[]): string | null {
  const texts = resps.map(unwrap);
  const first = texts.length > 0 ? texts[0] : null;
  const shown = typeof first === 'string' ? first : '';
  if (generationArguments(rec)) return shown;
  if (texts.some((t) => typeof t === 'string' && (t.trim() === '' || Number.isNaN(Number(t)))))
    return shown;
  if (resps.length === 1 && typeof first === 'string' && !isScorePair(resps[0])) return shown;
  return null;
}

/** True when the task scores by `acc_norm` (the record carries it, or lists it in `metrics`). */
export function usesAccNorm(rec: Rec): boolean {
  const metrics = rec.metrics;
  return 'acc_norm' in rec || (Array.isArray(metrics) && metrics.includes('acc_norm'));
}
