/**
 * Loading whole data sets: detect each file's format, read items files first,
 * stream every file through its incremental parser, and assemble one Dataset.
 * Works in a browser, a worker and Node; `node.ts` adds reading from disk.
 */
import { assembleDataset } from './assemble.ts';
import { DatasetBuilder } from './builder.ts';
import type { ChunkParser, StreamOptions } from './csv.ts';
import { decodeChunks, type SourceChunk } from './decode.ts';
import { detectFormat, type FileFormat } from './detect.ts';
import { createHarnessParser } from './harness.ts';
import { createItemsParser } from './items.ts';
import { createLongParser } from './long.ts';
import { ItemSampler, sampleWarning, type SampleOptions } from './sample.ts';
import { createWideParser } from './wide.ts';
import { DataError, type Dataset, type ValueKind } from './types.ts';

/** A file handed to `loadDataset`: its text, or a Blob/File to stream. */
export interface LoadInput {
  /** File name, with folders for harness logs (`model-name/samples_task_date.jsonl`). */
  name: string;
  text?: string;
  blob?: Blob;
  /** Model name for a harness log (default: its folder name). */
  model?: string;
}

/** Options for `loadDataset` and `loadDatasetFromPaths`. */
export interface LoadOptions {
  /** Forces the value kind of wide and long files. */
  valueKind?: ValueKind;
  /** Length-normalise harness log-likelihoods (see harness.ts). */
  lengthNormalise?: boolean;
  /** Model name for harness logs not inside a folder. */
  model?: string;
  /**
   * Keep a deterministic pseudo-random subset of items (whole items: every LLM
   * keeps the same ones), chosen by hashing each item id with the seed; a warning
   * records it. Rows of other items are skipped unvalidated. See `sample.ts`.
   */
  sample?: SampleOptions;
  /**
   * Refuse, with a DataError, to build a data set whose dense J x I arrays would
   * take more bytes than this (default `DEFAULT_MAX_DENSE_BYTES`, 8 GiB).
   */
  maxDenseBytes?: number;
  /** Characters (text) or bytes (blobs, disk) per chunk; default 4 MiB. */
  chunkSize?: number;
  signal?: AbortSignal;
  /** Progress over all files: bytes consumed, data rows read, current file. */
  onProgress?: (bytes: number, rows: number, at: { file: string; totalBytes: number }) => void;
}

/** A readable file, however it is stored. */
export interface ByteSource {
  name: string;
  size: number;
  model?: string;
  /** The first few KiB as text, for format detection. */
  head(): Promise<string>;
  /**
   * The whole file as decoded text chunks with their size in bytes. Byte sources
   * decode with `decodeChunks`: invalid UTF-8 becomes U+FFFD and is reported on
   * the last chunk (a warning, never an error).
   */
  chunks(): AsyncIterable<SourceChunk>;
}

export const DEFAULT_CHUNK = 4 * 1024 * 1024;
const HEAD_BYTES = 64 * 1024;

/** Lets pending events (an abort) run between chunks. */
const yieldToEvents = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function textSource(name: string, text: string, chunk: number, model?: string): ByteSource {
  return {
    name,
    size: text.length,
    model,
    head: async () => text.slice(0, HEAD_BYTES),
    async *chunks() {
      for (let at = 0; at < text.length; at += chunk) {
        yield { text: text.slice(at, at + chunk), bytes: Math.min(chunk, text.length - at) };
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
    head: async () => new TextDecoder().decode(await blob.slice(0, HEAD_BYTES).arrayBuffer()),
    chunks: () => decodeChunks(blobSlices(blob, chunk)),
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
 * add a warning with their count and first line (see `decode.ts`).
 */
export function loadDataset(files: LoadInput[], opts: LoadOptions = {}): Promise<Dataset> {
  const chunk = opts.chunkSize ?? DEFAULT_CHUNK;
  const sources = files.map((f) => {
    if (f.text !== undefined) return textSource(f.name, f.text, chunk, f.model);
    if (f.blob) return blobSource(f.name, f.blob, chunk, f.model);
    throw new DataError('no text or blob given', f.name);
  });
  return loadSources(sources, opts);
}

/** The folder a file sits in, or undefined. */
export function parentFolder(name: string): string | undefined {
  const parts = name.split(/[\\/]/).filter(Boolean);
  return parts.length >= 2 ? parts[parts.length - 2] : undefined;
}

/** Loads `ByteSource`s (used by `loadDataset` and the Node helper). */
export async function loadSources(sources: ByteSource[], opts: LoadOptions = {}): Promise<Dataset> {
  const formats: FileFormat[] = [];
  for (const s of sources) formats.push(detectFormat(s.name, await s.head()));
  const longAt = formats.indexOf('long');
  if (longAt >= 0 && !formats.includes('items'))
    throw new DataError(
      'a long-format file needs an items file with each item key and n_options',
      sources[longAt].name,
      undefined,
      undefined,
      'an items CSV (item,key,n_options,...) among the files',
    );
  const order = sources.map((_, n) => n);
  order.sort((a, b) => Number(formats[b] === 'items') - Number(formats[a] === 'items'));
  const totalBytes = sources.reduce((t, s) => t + s.size, 0);
  const builder = new DatasetBuilder();
  builder.sampler = ItemSampler.create(opts.sample);
  let bytesBefore = 0;
  let rowsBefore = 0;
  for (const n of order) {
    const src = sources[n];
    const stream: StreamOptions = {
      signal: opts.signal,
      onProgress: (bytes, rows) =>
        opts.onProgress?.(bytesBefore + bytes, rowsBefore + rows, { file: src.name, totalBytes }),
    };
    const parser = makeParser(formats[n], src, builder, opts, stream);
    for await (const c of src.chunks()) {
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
    bytesBefore += src.size;
    rowsBefore += parser.rows;
  }
  opts.signal?.throwIfAborted();
  if (builder.sampler) {
    const data = sources.find((_, n) => formats[n] !== 'items') ?? sources[0];
    builder.warn(sampleWarning(builder.sampler, data.name));
  }
  return assembleDataset(builder, opts.maxDenseBytes);
}

function makeParser(
  format: FileFormat,
  src: ByteSource,
  builder: DatasetBuilder,
  opts: LoadOptions,
  stream: StreamOptions,
): ChunkParser {
  switch (format) {
    case 'items':
      return createItemsParser(src.name, builder, stream);
    case 'wide':
      return createWideParser(src.name, builder, { ...stream, valueKind: opts.valueKind });
    case 'long':
      return createLongParser(src.name, builder, { ...stream, valueKind: opts.valueKind });
    case 'harness': {
      const model = src.model ?? opts.model ?? parentFolder(src.name);
      if (!model)
        throw new DataError(
          'cannot tell which model this harness log belongs to',
          src.name,
          undefined,
          undefined,
          'the file inside a folder named after the model, or the model option',
        );
      return createHarnessParser(src.name, builder, {
        ...stream,
        model,
        lengthNormalise: opts.lengthNormalise,
      });
    }
  }
}
