/**
 * Inspect AI logs: `.eval` (a ZIP of `header.json` or, while running,
 * `_journal/start.json`, and `samples/<id>_epoch_<n>.json`) or one `.json`
 * document with `eval` and `samples`. Members are DEFLATE before Inspect
 * 0.3.206 and Zstandard (ZIP method 93) from it: ./zip.ts reads the ZIP and
 * inflates DEFLATE members, fzstd decodes the Zstandard ones.
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
import { decompress as zstdDecompress } from 'fzstd';
import type { DatasetBuilder } from './builder.ts';
import { isRec, type Rec } from './harnessDoc.ts';
import { parentBenchmark } from './harnessRuns.ts';
import { ProducerTally } from './producerCheck.ts';
import { RecordSink } from './records.ts';
import { labelIndex } from './values.ts';
import { DataError, OPTION_LABELS, quoted } from './types.ts';
import { entryData, Inflater, zipEntries, type ZipEntry } from './zip.ts';

/** Writes a member's uncompressed bytes into `dest` (exactly its stated size). */
function readMember(bytes: Uint8Array, e: ZipEntry, inflater: Inflater, dest: Uint8Array): void {
  if (e.encrypted) throw new Error('encrypted');
  const data = entryData(bytes, e);
  if (e.method === 8) return inflater.inflate(data, dest);
  let raw: Uint8Array;
  if (e.method === 0) raw = data;
  else if (e.method === 93) raw = zstdDecompress(data);
  else throw new Error(`compression method ${e.method} is not supported`);
  if (raw.length !== dest.length)
    throw new Error(`${raw.length} bytes where ${dest.length} are stated`);
  dest.set(raw);
}

/** `samples/<id>_epoch_<n>.json`: n, or null for another name. */
const sampleEpoch = (name: string) => {
  const m = /^samples\/.*_epoch_(\d+)\.json$/.exec(name);
  return m ? Number(m[1]) : null;
};

/** Members' text per batch: one decode and one JSON.parse per batch, not per member. */
const BATCH_BYTES = 1 << 24;

/**
 * The JSON members of a ZIP that `want` accepts (all `.json` members by default),
 * by name. Only those members are decompressed. Members are inflated side by side
 * into one buffer as the text of a JSON array (`[m1,m2,...]`) and parsed at once,
 * in batches of about 16 MB: a log holds thousands of small samples, and a decode
 * and a parse per member cost more than the parsing itself.
 */
export function unzipJson(
  file: string,
  bytes: Uint8Array,
  want: (name: string) => boolean = (n) => n.endsWith('.json'),
): Map<string, unknown> {
  let entries: ZipEntry[];
  try {
    entries = zipEntries(bytes);
  } catch (e) {
    throw new DataError(`cannot read the ZIP: ${(e as Error).message}`, file);
  }
  const wanted = entries.filter((e) => want(e.name));
  const inflater = new Inflater();
  const dec = new TextDecoder();
  const out = new Map<string, unknown>();
  const parseOne = (name: string, text: string): unknown => {
    try {
      return JSON.parse(text);
    } catch (err) {
      throw new DataError(
        `cannot read a member: ${name}: invalid JSON (${(err as Error).message})`,
        file,
      );
    }
  };
  for (let i = 0; i < wanted.length;) {
    let j = i;
    let total = 1;
    while (j < wanted.length && (j === i || total + wanted[j].size + 1 <= BATCH_BYTES))
      total += wanted[j++].size + 1;
    const buf = new Uint8Array(total);
    const at = new Array<number>(j - i + 1);
    buf[0] = 0x5b; // [
    let o = 1;
    for (let k = i; k < j; k++) {
      const e = wanted[k];
      at[k - i] = o;
      try {
        readMember(bytes, e, inflater, buf.subarray(o, o + e.size));
      } catch (err) {
        throw new DataError(`cannot read a member: ${e.name}: ${(err as Error).message}`, file);
      }
      o += e.size;
      buf[o++] = k === j - 1 ? 0x5d : 0x2c; // ] or ,
    }
    at[j - i] = o;
    let values: unknown;
    try {
      values = JSON.parse(dec.decode(buf));
    } catch {
      values = null; // each member on its own below names the bad one
    }
    if (Array.isArray(values) && values.length === j - i)
      for (let k = i; k < j; k++) out.set(wanted[k].name, values[k - i]);
    else
      for (let k = i; k < j; k++)
        out.set(
          wanted[k].name,
          parseOne(wanted[k].name, dec.decode(buf.subarray(at[k - i], at[k - i + 1] - 1))),
        );
    i = j;
  }
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
  // Only the header and the first epoch's samples are decompressed: a later epoch's
  // sample stands in as { epoch } (readInspect drops it by that), and the summaries
  // and reductions, which repeat what the samples hold, are not read.
  const later: string[] = [];
  const members = unzipJson(file, bytes, (name) => {
    if (name === 'header.json' || name === '_journal/start.json') return true;
    const epoch = sampleEpoch(name);
    if (epoch === null) return name.startsWith('samples/') && name.endsWith('.json');
    if (epoch !== 1) later.push(name);
    return epoch === 1;
  });
  for (const name of later) members.set(name, { epoch: sampleEpoch(name) });
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
