/**
 * Whole-document formats: files that are read entire rather than streamed
 * (JSON documents, Parquet, Inspect `.eval` zips), each by its own reader.
 */
import type { DatasetBuilder } from './builder.ts';
import type { StreamOptions } from './csv.ts';
import type { DocFormat } from './detect.ts';
import type { AnyFormat, PlannedFile } from './plan.ts';
import { DataError } from './types.ts';

/** Formats `readDocument` reads. */
export type WholeFormat = Exclude<DocFormat, 'harness-results'> | 'parquet' | 'inspect-eval';

/** True for formats read whole by `readDocument`. */
export function isDocFormat(f: AnyFormat): f is WholeFormat {
  return (
    f === 'inspect' ||
    f === 'helm' ||
    f === 'opencompass' ||
    f === 'parquet' ||
    f === 'inspect-eval'
  );
}

/** Reads one whole-document file into the builder; returns the records read. */
export async function readDocument(
  f: PlannedFile & { format: WholeFormat },
  builder: DatasetBuilder,
  stream: StreamOptions,
): Promise<number> {
  stream.signal?.throwIfAborted();
  void builder;
  throw new DataError(`${f.format} files are not read yet`, f.src.name);
}
