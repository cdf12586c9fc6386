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

/** The `arguments` list: old `[context, continuation]` pairs or new `{gen_args_k: {arg_0, arg_1}}`. */
function argumentList(rec: Rec): unknown[] | null {
  const args = rec.arguments;
  if (Array.isArray(args)) return args;
  if (!isRec(args)) return null;
  return Object.keys(args)
    .sort((a, b) => Number(a.replace(/\D/g, '')) - Number(b.replace(/\D/g, '')))
    .map((k) => args[k]);
}

/** Scored continuations from `arguments`, one leading space (the target delimiter) removed. */
export function continuations(rec: Rec): string[] | null {
  const list = argumentList(rec);
  const conts = strings(list?.map((a) => (Array.isArray(a) ? a[1] : isRec(a) ? a.arg_1 : null)));
  return conts && conts.map((c) => (c.startsWith(' ') ? c.slice(1) : c));
}

/** The prompt of the first request (its context), or ''. */
function firstContext(rec: Rec): string {
  const a = argumentList(rec)?.[0];
  const c = Array.isArray(a) ? a[0] : isRec(a) ? a.arg_0 : '';
  return typeof c === 'string' ? c : '';
}

/** `doc.choices` as a string list (`["..."]` or `{text: ["..."]}`), or null. */
export function docChoices(rec: Rec): string[] | null {
  const doc = rec.doc;
  const ch = isRec(doc) ? doc.choices : undefined;
  return strings(isRec(ch) ? ch.text : ch);
}

/** The question text: `doc.question`, `doc.query` or `doc.ctx`, else ''. */
export function docQuestion(rec: Rec): string {
  const doc = isRec(rec.doc) ? rec.doc : {};
  for (const k of ['question', 'query', 'ctx', 'problem'])
    if (typeof doc[k] === 'string') return doc[k] as string;
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

/**
 * The item id: `doc.id` when it is a non-empty string; `<task>/<id>` when it is
 * a number (numbers repeat across tasks); otherwise `<task>/q<hash>` of the
 * question (or the first prompt) and the choices, so the same question gets the
 * same id in every model's log whatever its position; `<task>/<doc_id>` when the
 * record has no text at all.
 */
export function harnessItemId(rec: Rec, task: string): string {
  const doc = isRec(rec.doc) ? rec.doc : {};
  const id = doc.id;
  if (typeof id === 'string' && id.trim() !== '') return id.trim();
  if (typeof id === 'number') return `${task}/${id}`;
  const q = docQuestion(rec) || firstContext(rec);
  const choices = docChoices(rec) ?? continuations(rec) ?? [];
  const docId = rec.doc_id;
  if (q === '' && choices.length === 0 && (typeof docId === 'number' || typeof docId === 'string'))
    return `${task}/${docId}`; // nothing to hash: the position in the task is all there is
  return `${task}/q${stableHash([q, ...choices].join('\u0000'))}`;
}

/** Unwraps `["-1.2","False"]`, `[["-1.2","False"]]` or a bare number to the first value. */
export function unwrap(e: unknown): unknown {
  while (Array.isArray(e)) e = e[0];
  return e;
}

/**
 * The written answer when the record is from a generative run (`filtered_resps:
 * ["B"]`: text, not log-likelihoods), else null.
 */
export function generativeAnswer(resps: unknown[]): string | null {
  const first = resps.length > 0 ? unwrap(resps[0]) : null;
  if (typeof first !== 'string') return null;
  return first.trim() === '' || Number.isNaN(Number(first)) ? first : null;
}

/** True when the task scores by `acc_norm` (the record carries it, or lists it in `metrics`). */
export function usesAccNorm(rec: Rec): boolean {
  const metrics = rec.metrics;
  return 'acc_norm' in rec || (Array.isArray(metrics) && metrics.includes('acc_norm'));
}
