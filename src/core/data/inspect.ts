/**
 * Inspect AI logs: `.eval` (a ZIP of `header.json` or, while running,
 * `_journal/start.json`, and `samples/<id>_epoch_<n>.json`) or one `.json`
 * document with `eval` and `samples`. Members are DEFLATE before Inspect
 * 0.3.206 and Zstandard (ZIP method 93) from it: fflate reads the ZIP, fzstd
 * the Zstandard members.
 *
 * Option k's log-probability is the `top_logprobs` entry whose token, stripped,
 * is letter k (models emit " A"), at the first output position where the token
 * is an option letter; several entries for one letter (" A", "A") are summed in
 * probability. A letter missing from the top k is a missing option. `target` is
 * the key letter, `eval.model` the model; only epoch 1 is read.
 *
 * The key check: a sample's `scores.choice.value` is Inspect's own verdict on
 * the letter the model wrote ("C" correct, "I" incorrect). Argmax = key must
 * agree with it on every sample but ties; the file is refused otherwise.
 */
import { Unzip, UnzipInflate, UnzipPassThrough, unzipSync, type UnzipDecoder } from 'fflate';
import { decompress as zstdDecompress } from 'fzstd';
import type { DatasetBuilder } from './builder.ts';
import { isRec, type Rec } from './harnessDoc.ts';
import { parentBenchmark } from './harnessRuns.ts';
import { ProducerTally } from './producerCheck.ts';
import { RecordSink } from './records.ts';
import { labelIndex } from './values.ts';
import { DataError, OPTION_LABELS, quoted } from './types.ts';

/** fflate decoder for ZIP method 93 (Zstandard): buffers the member, then decodes it. */
class UnzipZstd implements UnzipDecoder {
  static compression = 93;
  ondata: UnzipDecoder['ondata'] = () => undefined;
  private parts: Uint8Array[] = [];
  push(chunk: Uint8Array, final: boolean): void {
    this.parts.push(chunk);
    if (!final) return;
    const all = new Uint8Array(this.parts.reduce((t, p) => t + p.length, 0));
    let at = 0;
    for (const p of this.parts) all.set(p, (at += p.length) - p.length);
    try {
      this.ondata(null, new Uint8Array(zstdDecompress(all)), true);
    } catch (e) {
      this.ondata(Object.assign(e as Error, { code: 0 }), new Uint8Array(0), true);
    }
  }
}

/** JSON text of the members, by name, or null when a member needs the streaming path. */
function unzipWhole(bytes: Uint8Array): Map<string, string> | null {
  let zstd = false;
  const members = unzipSync(bytes, {
    filter: (f) => {
      if (f.compression === 93) zstd = true;
      return !zstd && f.name.endsWith('.json') && (f.compression === 0 || f.compression === 8);
    },
  });
  if (zstd) return null;
  const dec = new TextDecoder();
  return new Map(Object.entries(members).map(([name, data]) => [name, dec.decode(data)]));
}

/** The JSON members of a ZIP, by name. */
export function unzipJson(file: string, bytes: Uint8Array): Map<string, unknown> {
  // DEFLATE logs (Inspect before 0.3.206) in one pass over the central directory, each
  // member inflated into a buffer of its known size: fflate's streaming Unzip grows a
  // buffer per member, which dominated logs of thousands of small samples.
  let whole: Map<string, string> | null;
  try {
    whole = unzipWhole(bytes);
  } catch {
    whole = null; // the streaming path below names what is wrong
  }
  if (whole) {
    const out = new Map<string, unknown>();
    for (const [name, text] of whole) {
      try {
        out.set(name, JSON.parse(text));
      } catch (e) {
        throw new DataError(
          `cannot read a member: ${name}: invalid JSON (${(e as Error).message})`,
          file,
        );
      }
    }
    return out;
  }
  const out = new Map<string, unknown>();
  const unzip = new Unzip();
  unzip.register(UnzipInflate);
  unzip.register(UnzipPassThrough);
  unzip.register(UnzipZstd);
  const dec = new TextDecoder();
  let failure: Error | null = null;
  unzip.onfile = (f) => {
    if (!f.name.endsWith('.json')) return;
    const parts: Uint8Array[] = [];
    f.ondata = (err, data, final) => {
      if (err) failure ??= new Error(`${f.name}: ${err.message}`);
      else parts.push(data);
      if (final && !err) {
        const text = parts.map((p, n) => dec.decode(p, { stream: n < parts.length - 1 })).join('');
        try {
          out.set(f.name, JSON.parse(text));
        } catch (e) {
          failure ??= new Error(`${f.name}: invalid JSON (${(e as Error).message})`);
        }
      }
    };
    f.start();
  };
  try {
    // fflate's Unzip recurses once per member within one push: a whole log of
    // thousands of samples overflows the stack, so it is pushed in slices.
    const SLICE = 1 << 16;
    for (let at = 0; at < bytes.length || at === 0; at += SLICE)
      unzip.push(bytes.subarray(at, at + SLICE), at + SLICE >= bytes.length);
  } catch (e) {
    throw new DataError(`cannot read the ZIP: ${(e as Error).message}`, file);
  }
  if (failure) throw new DataError(`cannot read a member: ${(failure as Error).message}`, file);
  return out;
}

const strip = (t: unknown) => (typeof t === 'string' ? t.trim() : '');

/** Per-option log-probabilities from an output's logprobs, NaN where the letter is not listed. */
function letterLogprobs(sample: Rec, n: number): number[] | null {
  const out = isRec(sample.output) ? sample.output : {};
  const choice = Array.isArray(out.choices) && isRec(out.choices[0]) ? out.choices[0] : {};
  const content = isRec(choice.logprobs) ? choice.logprobs.content : undefined;
  if (!Array.isArray(content)) return null;
  const letters = OPTION_LABELS.slice(0, n) as readonly string[];
  const pos =
    content.find((c) => isRec(c) && letters.includes(strip(c.token))) ??
    content.find((c) => isRec(c) && Array.isArray(c.top_logprobs));
  if (!isRec(pos) || !Array.isArray(pos.top_logprobs)) return null;
  const p = new Array<number>(n).fill(0);
  for (const t of pos.top_logprobs) {
    if (!isRec(t) || typeof t.logprob !== 'number') continue;
    const k = letters.indexOf(strip(t.token));
    if (k >= 0) p[k] += Math.exp(t.logprob);
  }
  return p.map((x) => (x > 0 ? Math.log(x) : NaN));
}

/** Inspect's `choice` scorer verdict on a sample: 1 correct, 0 incorrect, null when absent. */
export function choiceScore(sample: Rec): number | null {
  const scores = isRec(sample.scores) ? sample.scores : {};
  const v = isRec(scores.choice) ? scores.choice.value : undefined;
  if (v === 'C' || v === 1 || v === true) return 1;
  if (v === 'I' || v === 0 || v === false) return 0;
  return null;
}

/** Log-probabilities for ranking: a letter outside the top k ranks below every listed one. */
const ranked = (values: number[]) => values.map((v) => (Number.isNaN(v) ? -Infinity : v));

/** Reads an Inspect log given its header (`eval`) and samples. */
export function readInspect(
  file: string,
  header: Rec,
  samples: unknown[],
  builder: DatasetBuilder,
): number {
  const sink = new RecordSink(file, 'inspect', builder);
  const tally = new ProducerTally('Inspect', 'choice score');
  const ev = isRec(header.eval) ? header.eval : {};
  const model = typeof ev.model === 'string' ? ev.model : '';
  if (!model) throw new DataError('the log has no eval.model', file, undefined, 'eval.model');
  const task = String(ev.task ?? 'inspect')
    .split('/')
    .pop()!;
  if (samples.length === 0)
    throw new DataError(
      `the log holds no samples (its status is ${quoted(String(header.status ?? 'unknown'))})`,
      file,
      undefined,
      'samples',
    );
  samples.forEach((s, n) => {
    const r = n + 1;
    if (!isRec(s)) throw sink.error(r, 'samples', 'not an object');
    if (typeof s.epoch === 'number' && s.epoch !== 1)
      return sink.drop('samples of epochs after the first');
    const choices = Array.isArray(s.choices) ? s.choices.map(String) : null;
    if (!choices) return sink.drop('samples without choices (not multiple choice)');
    const values = letterLogprobs(s, choices.length);
    if (!values)
      return sink.drop('samples without log-probabilities (run with --logprobs --top-logprobs)');
    const target = Array.isArray(s.target) ? s.target[0] : s.target;
    const key = labelIndex(strip(target));
    if (key < 0) throw sink.error(r, 'target', `target ${String(target)} is not an option letter`);
    const score = choiceScore(s);
    if (score !== null) tally.add(ranked(values), values.length, key, score, r);
    const id = s.id;
    const item = typeof id === 'string' && id ? id : `${task}/${String(id ?? r)}`;
    const input = typeof s.input === 'string' ? s.input : '';
    sink.add(
      {
        model,
        item,
        benchmark: parentBenchmark(task),
        subtask: task,
        key,
        values,
        question: input,
        options: choices,
      },
      r,
      'output.choices[0].logprobs',
      'logprob',
    );
  });
  tally.throwIfDisagreed(file, 'scores.choice');
  sink.finish(
    'logprob',
    'Inspect top_logprobs of the answer letter, softmax over the letters listed',
    `model ${model}`,
    true,
    tally.result(),
  );
  return samples.length;
}

/** Reads a `.eval` ZIP. */
export function readInspectEval(file: string, bytes: Uint8Array, builder: DatasetBuilder): number {
  const members = unzipJson(file, bytes);
  const header = members.get('header.json') ?? members.get('_journal/start.json');
  if (!isRec(header))
    throw new DataError(
      'an .eval log without header.json or _journal/start.json',
      file,
      undefined,
      'header.json',
    );
  const names = [...members.keys()].filter((k) => k.startsWith('samples/')).sort(bySampleName);
  return readInspect(
    file,
    header,
    names.map((k) => members.get(k)),
    builder,
  );
}

/** `samples/<id>_epoch_<n>.json` in id order (numeric ids numerically). */
function bySampleName(a: string, b: string): number {
  const na = Number(/samples\/(\d+)_epoch/.exec(a)?.[1]);
  const nb = Number(/samples\/(\d+)_epoch/.exec(b)?.[1]);
  return Number.isNaN(na) || Number.isNaN(nb) ? (a < b ? -1 : a > b ? 1 : 0) : na - nb;
}
