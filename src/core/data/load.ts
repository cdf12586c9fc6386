/**
 * Loading whole data sets: detect each file's format, read items files first,
 * stream every file through its incremental parser, and assemble one Dataset.
 * Works in a browser, a worker and Node; `src/node/files.ts` adds reading from disk.
 */
import { assembleDataset } from './assemble.ts';
import { ConflictError, DatasetBuilder } from './builder.ts';
import type { ChunkParser, StreamOptions } from './csv.ts';
import { decodeChunks } from './decode.ts';
import { isDocFormat, readDocument } from './docs.ts';
import { createHarnessParser } from './harness.ts';
import { folderOf, harnessLogName, parentBenchmark, type HarnessResults } from './harnessRuns.ts';
import { createItemsParser } from './items.ts';
import { createLongParser } from './long.ts';
import { planSources, type PlannedFile } from './plan.ts';
import { ItemSampler, sampleWarning } from './sample.ts';
import { createWideParser } from './wide.ts';
import {
  DEFAULT_CHUNK,
  HEAD_BYTES,
  type ByteSource,
  type LoadInput,
  type LoadOptions,
} from './sources.ts';
import { DataError, type Dataset } from './types.ts';

export type { ByteSource, LoadInput, LoadOptions } from './sources.ts';
export { DEFAULT_CHUNK, HEAD_BYTES, parentFolder } from './sources.ts';

/** Lets pending events (an abort) run between chunks. */
const yieldToEvents = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function textSource(name: string, text: string, chunk: number, model?: string): ByteSource {
  const enc = new TextEncoder();
  return {
    name,
    size: text.length,
    model,
    head: async () => enc.encode(text.slice(0, HEAD_BYTES)),
    async *bytes() {
      for (let at = 0; at < text.length; at += chunk) {
        yield enc.encode(text.slice(at, at + chunk));
        await yieldToEvents();
      }
    },
  };
}

function blobSource(name: string, blob: Blob, chunk: number, model?: string): ByteSource {
  return {
    name,
    size: blob.size,
    model,
    head: async () => new Uint8Array(await blob.slice(0, HEAD_BYTES).arrayBuffer()),
    bytes: () => blobSlices(blob, chunk),
    whole: async () => new Uint8Array(await blob.arrayBuffer()),
  };
}

async function* blobSlices(blob: Blob, chunk: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < blob.size; at += chunk)
    yield new Uint8Array(await blob.slice(at, at + chunk).arrayBuffer());
}

/**
 * Loads and merges files of any supported format into one Dataset. Long files
 * need an items file among `files`; items files are read first. Throws DataError
 * on bad input, or the signal's reason when aborted (RangeError for bad
 * `sample` options). Blobs are decoded as UTF-8: invalid bytes become U+FFFD and
 * add a warning with their count and first line (see `decode.ts`). Gzip files
 * are decompressed; binary files other than Parquet and Inspect `.eval` are
 * refused as "not a text file" (see `sniff.ts`).
 */
export function loadDataset(files: LoadInput[], opts: LoadOptions = {}): Promise<Dataset> {
  const chunk = opts.chunkSize ?? DEFAULT_CHUNK;
  const sources = files.map((f) => {
    const src =
      f.text !== undefined
        ? textSource(f.name, f.text, chunk, f.model)
        : f.blob
          ? blobSource(f.name, f.blob, chunk, f.model)
          : null;
    if (!src) throw new DataError('no text or blob given', f.name);
    src.optional = f.optional ?? (/[\\/]/.test(f.name) && !/\.csv$/i.test(f.name));
    return src;
  });
  return loadSources(sources, opts);
}

/**
 * Lets a file read whole (a Blob: one round trip to the browser process) be
 * fetched ahead; its read is started once and handed to the next `whole()`.
 */
function prefetchable(f: PlannedFile): void {
  const read = f.whole;
  if (!read || !isDocFormat(f.format)) return;
  let pending: Promise<Uint8Array> | null = null;
  f.prefetch = () => {
    if (pending) return;
    pending = read();
    pending.catch(() => {});
  };
  f.whole = () => {
    const p = pending ?? read();
    pending = null;
    return p;
  };
}

/** Loads `ByteSource`s (used by `loadDataset` and the Node helper). */
export async function loadSources(sources: ByteSource[], opts: LoadOptions = {}): Promise<Dataset> {
  const builder = new DatasetBuilder();
  builder.sampler = ItemSampler.create(opts.sample);
  const { files, results } = await planSources(sources, builder, opts);
  const strict = opts.strict === true;
  // Strict mode stops at the first file that cannot be used, before reading the rest.
  if (strict) refuseSkipped(builder, true);
  const longAt = files.findIndex((f) => f.format === 'long');
  if (longAt >= 0 && !files.some((f) => f.format === 'items'))
    throw new DataError(
      'a long-format file needs an items file with each item key and n_options',
      files[longAt].src.name,
      undefined,
      undefined,
      'an items CSV (item,key,n_options,...) among the files',
    );
  files.sort((a, b) => Number(b.format === 'items') - Number(a.format === 'items'));
  const totalBytes = files.reduce((t, f) => t + f.src.size, 0);
  let bytesBefore = 0;
  let rowsBefore = 0;
  const run: LoadRun = { builder, opts, results };
  files.forEach(prefetchable);
  for (let k = 0; k < files.length; k++) {
    const f = files[k];
    // The next file read whole is fetched while this one is parsed.
    files[k + 1]?.prefetch?.();
    const stream: StreamOptions = {
      signal: opts.signal,
      onProgress: (bytes, rows) =>
        opts.onProgress?.(bytesBefore + Math.min(bytes, f.src.size), rowsBefore + rows, {
          file: f.src.name,
          totalBytes,
        }),
    };
    rowsBefore += await readIsolated(f, run, stream);
    bytesBefore += f.src.size;
    if (strict) refuseSkipped(builder, true);
  }
  opts.signal?.throwIfAborted();
  if (builder.sampler) {
    const data = files.find((f) => f.format !== 'items') ?? files[0];
    if (data) builder.warn(sampleWarning(builder.sampler, data.src.name));
  }
  refuseSkipped(builder, strict);
  return assembleDataset(builder, opts.maxDenseBytes);
}

/** What every file of one load reads into and with. */
interface LoadRun {
  builder: DatasetBuilder;
  opts: LoadOptions;
  /** What each folder's harness results_*.json says (task groups, output types). */
  results: Map<string, HarnessResults>;
}

/**
 * Reads one file; a file that cannot be used (a DataError of its own, or a
 * reader's whole-file skip) is undone and listed in `builder.skipped` with its
 * reason. Disagreements between files (ConflictError), a bad items file and
 * aborts still throw.
 * Returns the rows read.
 */
async function readIsolated(f: PlannedFile, run: LoadRun, stream: StreamOptions): Promise<number> {
  const { builder, opts } = run;
  const mark = builder.mark();
  const skippedBefore = builder.skipped.length;
  try {
    const rows = await readOne(f, run, stream);
    if (builder.skipped.length > skippedBefore) {
      const own = builder.skipped.slice(skippedBefore);
      builder.rollback(mark, f.src.name);
      own.forEach((w) => builder.warn(w));
    }
    return rows;
  } catch (e) {
    // An items file is not skipped: the data files' keys and texts depend on it.
    if (!(e instanceof DataError) || e instanceof ConflictError || f.format === 'items') throw e;
    opts.signal?.throwIfAborted();
    builder.rollback(mark, f.src.name);
    builder.skipped.length = skippedBefore;
    builder.skip({ file: f.src.name, line: e.line, code: 'other', message: e.reason }, e);
    return 0;
  }
}

/** Streams or reads one planned file into the builder; returns its rows. */
async function readOne(f: PlannedFile, run: LoadRun, stream: StreamOptions): Promise<number> {
  const { builder } = run;
  const src = f.src;
  if (isDocFormat(f.format)) return readDocument({ ...f, format: f.format }, builder, stream);
  const parser = makeParser(f, run, stream);
  for await (const c of decodeChunks(f.bytes())) {
    if (c.text || c.bytes) parser.push(c.text, c.bytes);
    if (c.invalid)
      builder.warn({
        file: src.name,
        line: c.invalid.line,
        code: 'other',
        count: c.invalid.count,
        message:
          `${c.invalid.count} invalid UTF-8 byte sequences were replaced by U+FFFD ` +
          '(is the file in a legacy encoding? save it as UTF-8)',
      });
  }
  parser.finish();
  return parser.rows;
}

/**
 * Throws when skipped files must stop the load: in strict mode, naming the first;
 * when no data file is left, the one file's own error, or every file with why.
 */
function refuseSkipped(builder: DatasetBuilder, strict: boolean): void {
  const skipped = builder.skipped;
  if (skipped.length === 0) return;
  const first = skipped[0];
  if (strict)
    throw new DataError(
      `strict mode: this file could not be used: ${first.message}` +
        (skipped.length > 1 ? ` (and ${skipped.length - 1} more found so far)` : ''),
      first.file,
      first.line,
    );
  if (builder.blocks.length > 0) return;
  if (skipped.length === 1) throw builder.skipError(0);
  const e = new DataError('no usable data file', commonFolder(skipped.map((w) => w.file)));
  // The list is the message: DataError would cut it at 400 characters.
  e.message =
    `no usable data file: ${skipped.length} files gave nothing:\n` +
    skipped.map((w) => `  ${w.file}${w.line ? ` line ${w.line}` : ''}: ${w.message}`).join('\n');
  throw e;
}

/** The deepest folder holding every path ('' when none is shared). */
function commonFolder(paths: string[]): string {
  const split = paths.map((p) => p.split(/[\\/]/).slice(0, -1));
  const out: string[] = [];
  for (let k = 0; split.every((s) => k < s.length && s[k] === split[0][k]); k++)
    out.push(split[0][k]);
  return out.join('/') || '(the files given)';
}

function makeParser(
  f: PlannedFile,
  { builder, opts, results }: LoadRun,
  stream: StreamOptions,
): ChunkParser {
  const { src } = f;
  switch (f.format) {
    case 'items':
      return createItemsParser(src.name, builder, stream);
    case 'wide':
      return createWideParser(src.name, builder, { ...stream, valueKind: opts.valueKind });
    case 'long':
      return createLongParser(src.name, builder, { ...stream, valueKind: opts.valueKind });
    case 'harness': {
      const model = f.model!;
      const { task } = harnessLogName(src.name);
      const run = results.get(folderOf(src.name));
      return createHarnessParser(src.name, builder, {
        ...stream,
        model,
        task,
        benchmark: parentBenchmark(task, run?.parents),
        outputType: run?.outputTypes.get(task),
        lengthNormalise: opts.lengthNormalise,
      });
    }
    default:
      throw new DataError(`${f.format} is not a streamed format`, src.name);
  }
}
