/**
 * Before any parsing: what each source is (sniffed bytes, then its text or
 * container format), which model it belongs to, and which harness runs to read.
 * Gzip sources are decompressed here; results files are read for model names
 * and subtask groups; older harness runs are dropped with a note, and files
 * that cannot be read (unrecognised, damaged, a Git LFS pointer) are skipped
 * with their reason in `builder.skipped`.
 */
import type { DatasetBuilder } from './builder.ts';
import { detectFormat, detectJsonDoc, type DocFormat, type FileFormat } from './detect.ts';
import { gunzipStream } from './gzip.ts';
import {
  folderOf,
  harnessLogName,
  latestRuns,
  readHarnessResults,
  type HarnessResults,
} from './harnessRuns.ts';
import { HEAD_BYTES, parentFolder, type ByteSource, type LoadOptions } from './sources.ts';
import { sniffBytes } from './sniff.ts';
import { DataError } from './types.ts';

/** Every format a source can have. */
export type AnyFormat = FileFormat | DocFormat | 'parquet' | 'inspect-eval';

/** A source to read, with its format and (decompressed) bytes. */
export interface PlannedFile {
  src: ByteSource;
  format: AnyFormat;
  /** The file's content (decompressed for .gz). */
  bytes: () => AsyncIterable<Uint8Array>;
  /** The content in one read, where the source can (not for .gz). */
  whole?: () => Promise<Uint8Array>;
  /** Starts `whole`'s read now, for the next call (set by `loadSources`). */
  prefetch?: () => void;
  /** The model a per-model file belongs to (folder, results file or option), if known. */
  model?: string;
}

/** The first `n` bytes of a stream. */
async function firstBytes(it: AsyncIterable<Uint8Array>, n: number): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let got = 0;
  for await (const b of it) {
    parts.push(b);
    got += b.length;
    if (got >= n) break;
  }
  const out = new Uint8Array(Math.min(got, n));
  let at = 0;
  for (const p of parts) {
    out.set(p.subarray(0, out.length - at), at);
    at += p.length;
    if (at >= out.length) break;
  }
  return out;
}

/** The whole content as text. */
export async function readText(bytes: AsyncIterable<Uint8Array>): Promise<string> {
  const dec = new TextDecoder();
  let text = '';
  for await (const b of bytes) text += dec.decode(b, { stream: true });
  return text + dec.decode();
}

/** How many files ahead their heads are read. */
const HEADS_AHEAD = 8;

/** Sniffs and detects one source; null when a walked file is not a format we read. */
async function classify(src: ByteSource, first: Promise<Uint8Array>): Promise<PlannedFile | null> {
  let bytes = () => src.bytes();
  let whole = src.whole && (() => src.whole!());
  let head = await first;
  let name = src.name;
  let kind = sniffBytes(name, head);
  if (kind === 'gzip') {
    bytes = () => (src.gunzip ? src.gunzip() : gunzipStream(src.bytes()));
    whole = undefined;
    head = await firstBytes(bytes(), HEAD_BYTES);
    name = name.replace(/\.gz$/i, '');
    kind = sniffBytes(src.name, head);
    if (kind !== 'text')
      throw new DataError(`a gzip file holding ${kind} data is not read`, src.name);
  }
  if (kind === 'zip') return { src, format: 'inspect-eval', bytes, whole };
  if (kind === 'parquet') return { src, format: 'parquet', bytes, whole };
  const text = new TextDecoder().decode(head);
  const doc = detectJsonDoc(name, text);
  if (doc) return { src, format: doc, bytes, whole };
  if (src.optional && !/\.jsonl$/i.test(name)) return null;
  return { src, format: detectFormat(name, text), bytes };
}

/**
 * Classifies every source and chooses what to read. Returns the files to parse
 * (results files excluded) and the results files' contents by folder.
 */
export async function planSources(
  sources: ByteSource[],
  builder: DatasetBuilder,
  opts: LoadOptions,
): Promise<{ files: PlannedFile[]; results: Map<string, HarnessResults> }> {
  const planned: PlannedFile[] = [];
  const results = new Map<string, HarnessResults>();
  // Heads are read a few files ahead: a Blob's read is a round trip to the browser
  // process, which a loaded machine makes slow, so they overlap.
  const heads = new Map<number, Promise<Uint8Array>>();
  const head = (i: number) => {
    let h = heads.get(i);
    if (!h) heads.set(i, (h = sources[i].head()));
    h.catch(() => {});
    return h;
  };
  for (let i = 0; i < sources.length; i++) {
    const src = sources[i];
    for (let j = i + 1; j < Math.min(sources.length, i + HEADS_AHEAD); j++) head(j);
    let f: PlannedFile | null;
    try {
      f = await classify(src, head(i));
      heads.delete(i);
    } catch (e) {
      // A file that cannot be read is skipped with its reason (strict mode, in
      // load.ts, turns that into an error); the other files still load.
      if (!(e instanceof DataError)) throw e;
      builder.skip({ file: src.name, line: e.line, code: 'other', message: e.reason }, e);
      continue;
    }
    if (!f) {
      builder.skip({
        file: src.name,
        code: 'other',
        message: 'not a format the workbench reads',
      });
      continue;
    }
    if (f.format !== 'harness-results') {
      planned.push(f);
      continue;
    }
    const r = readHarnessResults(src.name, await readText(f.bytes()));
    const folder = folderOf(src.name);
    const old = results.get(folder);
    if (!r) {
      builder.skip({
        file: src.name,
        code: 'other',
        message: 'not a valid harness results JSON file',
      });
      continue;
    }
    if (!old) results.set(folder, r);
    else {
      for (const [k, v] of r.parents) old.parents.set(k, v);
      for (const [k, v] of r.outputTypes) old.outputTypes.set(k, v);
      if (r.modelName && (!old.modelName || r.stamp > old.stamp)) old.modelName = r.modelName;
    }
  }
  for (const f of planned) {
    const folder = folderOf(f.src.name);
    f.model =
      f.src.model ?? opts.model ?? results.get(folder)?.modelName ?? parentFolder(f.src.name);
  }
  const logs = planned.filter((f) => f.format === 'harness');
  for (const f of logs)
    if (!f.model)
      throw new DataError(
        'cannot tell which model this harness log belongs to',
        f.src.name,
        undefined,
        undefined,
        'the file inside a folder named after the model, or the model option',
      );
  const runs = logs.map((f) => ({
    file: f.src.name,
    model: f.model!,
    ...harnessLogName(f.src.name),
  }));
  const { keep, notes } = latestRuns(runs);
  notes.forEach((n) => builder.warn(n));
  const dropped = new Set(logs.filter((_, n) => !keep.has(n)));
  return { files: planned.filter((f) => !dropped.has(f)), results };
}
