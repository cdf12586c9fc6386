/**
 * Reading load sources into a data set, shared by the worker's two data slots
 * (the calibration data and the new LLMs scored against a bank).
 */
import * as Comlink from 'comlink';
import { loadDataset, type LoadInput } from '../core/data/load';
import type { Dataset } from '../core/data/types';
import type { LoadOptions, LoadProgress, LoadSource } from '../boundary/protocol';
import { throttle } from '../boundary/throttle';

/** 1 MiB chunks: a progress report (and a chance to cancel) every few ms. */
export const PROGRESS_CHUNK = 1 << 20;

/** A source as the loader reads it; URLs are fetched here (same origin only). */
export async function toInput(
  src: LoadSource,
  signal: AbortSignal,
): Promise<LoadInput & { blob: Blob }> {
  if ('blob' in src) return src;
  if ('text' in src) return { name: src.name, model: src.model, blob: new Blob([src.text]) };
  const res = await fetch(src.url, { signal });
  if (!res.ok) throw new Error(`${src.name}: could not fetch (${res.status} ${res.statusText})`);
  return { name: src.name, blob: await res.blob() };
}

/** Frees a comlink callback proxy once a call no longer reports through it. */
export function release(cb: unknown): void {
  const r = (cb as { [Comlink.releaseProxy]?: () => void })[Comlink.releaseProxy];
  if (typeof r === 'function') r.call(cb);
}

/** Reads and parses `sources` into one data set, reporting throttled progress. */
export async function readSources(
  sources: LoadSource[],
  opts: LoadOptions,
  onProgress: (p: LoadProgress) => void,
  signal: AbortSignal,
): Promise<Dataset> {
  const t0 = performance.now();
  const files = await Promise.all(sources.map((s) => toInput(s, signal)));
  const totalBytes = files.reduce((n, f) => n + f.blob.size, 0);
  const report = throttle((p: LoadProgress) => void onProgress(p));
  report.push({ bytes: 0, totalBytes, rows: 0, elapsedMs: performance.now() - t0 });
  const ds = await loadDataset(files, {
    chunkSize: PROGRESS_CHUNK,
    ...opts,
    signal,
    onProgress: (bytes: number, rows: number) =>
      report.push({ bytes, totalBytes, rows, elapsedMs: performance.now() - t0 }),
  });
  report.flush();
  return ds;
}
