/**
 * Fits in worker threads, one at a time per thread, for runs of many
 * independent fits (cross-validation's folds × models). Each thread runs the
 * same fitDataset on a single-threaded engine, so a fit is the same as on the
 * main thread with that engine; on small data, where the engine would not
 * spread over threads anyway, n threads run n fits at once.
 */
import { Worker } from 'node:worker_threads';
import type { Dataset } from '../core/data/types';
import { throwIfAborted, type FitRunner } from '../core/eval/common';
import type { EngineName } from '../core/engines/types';
import type { FitJson, FitProgress, FitSettings } from '../core/fit/types';

/** A fit as sent to a thread. */
export interface FitJob {
  type: 'fit';
  id: number;
  ds: Dataset;
  settings: Partial<FitSettings>;
  engine: { name: EngineName; reason: string };
}

/** What a thread posts back about a job. */
export type FitReply =
  | { id: number; type: 'progress'; progress: FitProgress }
  | { id: number; type: 'done'; json: FitJson }
  | { id: number; type: 'error'; name: string; message: string };

interface Pending {
  resolve(json: FitJson): void;
  reject(e: Error): void;
  onProgress?: (p: FitProgress) => void;
}

export interface FitPool {
  fit: FitRunner;
  close(): Promise<void>;
}

/** `threads` worker threads running fits on the engine named (wasm or fused). */
export function createFitPool(
  threads: number,
  engine: { name: EngineName; reason: string },
): FitPool {
  const pending = new Map<number, Pending>();
  const idle: Worker[] = [];
  const waiting: ((w: Worker) => void)[] = [];
  let nextId = 0;
  const onReply = (m: FitReply) => {
    const p = pending.get(m.id);
    if (!p) return;
    if (m.type === 'progress') return p.onProgress?.(m.progress);
    pending.delete(m.id);
    if (m.type === 'done') p.resolve(m.json);
    else p.reject(Object.assign(new Error(m.message), { name: m.name }));
  };
  const workers = Array.from({ length: threads }, () => {
    const w = new Worker(new URL('./fitThread.mjs', import.meta.url));
    w.on('message', onReply);
    w.on('error', (e: unknown) => {
      const err = e instanceof Error ? e : new Error(String(e));
      for (const p of pending.values()) p.reject(err);
      pending.clear();
    });
    idle.push(w);
    return w;
  });
  const acquire = () =>
    new Promise<Worker>((resolve) => {
      const w = idle.pop();
      if (w) resolve(w);
      else waiting.push(resolve);
    });
  const release = (w: Worker) => {
    const next = waiting.shift();
    if (next) next(w);
    else idle.push(w);
  };
  const fit: FitRunner = async (ds, settings, opts) => {
    const w = await acquire();
    const id = nextId++;
    const onAbort = () => w.postMessage({ type: 'cancel', id });
    try {
      throwIfAborted(opts.signal);
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      return await new Promise<FitJson>((resolve, reject) => {
        pending.set(id, { resolve, reject, onProgress: opts.onProgress });
        w.postMessage({ type: 'fit', id, ds, settings, engine } satisfies FitJob);
      });
    } finally {
      opts.signal?.removeEventListener('abort', onAbort);
      release(w);
    }
  };
  return {
    fit,
    close: async () => {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
