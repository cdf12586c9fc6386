/**
 * What a load reads and how: the files handed to it (`LoadInput`, `ByteSource`),
 * its options, and the names the loader and the format planner share. A leaf
 * (no other loader file imports back), so `load.ts` and `plan.ts` need not
 * import each other; `load.ts` re-exports it.
 */
import type { SampleOptions } from './sample.ts';
import type { ValueKind } from './types.ts';

/** A file handed to `loadDataset`: its text, or a Blob/File to stream. */
export interface LoadInput {
  /** File name, with folders for harness logs (`model-name/samples_task_date.jsonl`). */
  name: string;
  text?: string;
  blob?: Blob;
  /** Model name for a harness log (default: its folder name). */
  model?: string;
  /**
   * Skip the file with a note when it is no format the loader reads; default:
   * true for non-CSV files inside a folder (a dropped or picked folder).
   */
  optional?: boolean;
}

/** Options for `loadDataset` and `loadDatasetFromPaths`. */
export interface LoadOptions {
  /** Forces the value kind of wide and long files. */
  valueKind?: ValueKind;
  /** Length-normalise harness log-likelihoods (see harness.ts); default: when a task reports acc_norm. */
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
  /**
   * Fail on the first file that cannot be used, instead of skipping it with its
   * reason (listed in `Dataset.skipped`).
   */
  strict?: boolean;
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
  /** Found by walking a folder: skipped with a note, not an error, when unrecognised. */
  optional?: boolean;
  /** The first few KiB, for sniffing and format detection. */
  head(): Promise<Uint8Array>;
  /** The whole file as byte chunks. */
  bytes(): AsyncIterable<Uint8Array>;
  /** The whole file at once, where that is one read (a Blob): for the files read whole. */
  whole?(): Promise<Uint8Array>;
  /** Decompresses a gzip file (the CLI uses node:zlib); default: `DecompressionStream`. */
  gunzip?(): AsyncIterable<Uint8Array>;
}

export const DEFAULT_CHUNK = 4 * 1024 * 1024;
export const HEAD_BYTES = 64 * 1024;

/** The folder a file sits in, or undefined. */
export function parentFolder(name: string): string | undefined {
  const parts = name.split(/[\\/]/).filter(Boolean);
  return parts.length >= 2 ? parts[parts.length - 2] : undefined;
}
