/**
 * Whole-document formats: files that are read entire rather than streamed
 * (JSON documents, Parquet, Inspect `.eval` zips), each by its own reader.
 */
import type { DatasetBuilder } from './builder.ts';
import type { StreamOptions } from './csv.ts';
import type { DocFormat } from './detect.ts';
import { isRec } from './harnessDoc.ts';
import { readHelm } from './helm.ts';
import { readInspect, readInspectEval } from './inspect.ts';
import { readOpenCompass } from './opencompass.ts';
import { readParquet } from './parquet.ts';
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

/** The whole content, reporting progress as it arrives. */
async function readAll(f: PlannedFile, stream: StreamOptions): Promise<Uint8Array> {
  if (f.whole) {
    // One read and no copy (a Blob), where chunks cost a read each and a copy into one buffer.
    stream.signal?.throwIfAborted();
    const all = await f.whole();
    stream.signal?.throwIfAborted();
    stream.onProgress?.(Math.min(all.length, f.src.size), 0);
    return all;
  }
  const parts: Uint8Array[] = [];
  let got = 0;
  for await (const b of f.bytes()) {
    stream.signal?.throwIfAborted();
    parts.push(b);
    got += b.length;
    stream.onProgress?.(Math.min(got, f.src.size), 0);
  }
  const all = new Uint8Array(got);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}

/** Reads one whole-document file into the builder; returns the records read. */
export async function readDocument(
  f: PlannedFile & { format: WholeFormat },
  builder: DatasetBuilder,
  stream: StreamOptions,
): Promise<number> {
  const name = f.src.name;
  const bytes = await readAll(f, stream);
  if (f.format === 'parquet') return readParquet(name, bytes, f.model, builder);
  if (f.format === 'inspect-eval') return readInspectEval(name, bytes, builder);
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    throw new DataError(`invalid JSON: ${(e as Error).message}`, name);
  }
  if (!isRec(doc)) throw new DataError('not a JSON object', name);
  if (f.format === 'helm') return readHelm(name, doc, builder);
  if (f.format === 'opencompass') return readOpenCompass(name, doc, f.model, builder);
  const samples = Array.isArray(doc.samples) ? doc.samples : [];
  return readInspect(name, doc, samples, builder);
}
