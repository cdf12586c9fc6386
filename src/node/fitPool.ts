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

/**
 * `threads` worker threads running fits on the engine named (wasm or fused).
 * A thread that dies (an uncaught error, or it exits) fails only the fit it
 * was running, and a fresh thread takes its place. `script` is the thread's
 * entry (fitThread.mjs; tests give another).
 */
export function createFitPool(
  threads: number,
  engine: { name: EngineName; reason: string },
  script: URL = new URL('./fitThread.mjs', import.meta.url),
): FitPool {
  const pending = new Map<number, Pending>();
  const idle: Worker[] = [];
  const waiting: ((w: Worker) => void)[] = [];
  /** The job each thread is running, and the threads that died. */
  const running = new Map<Worker, number>();
  const dead = new Set<Worker>();
  const live = new Set<Worker>();
  let closing = false;
  let nextId = 0;
  const settle = (id: number, m: { json: FitJson } | { error: Error }) => {
    const p = pending.get(id);
    if (!p) return;
    pending.delete(id);
    if ('json' in m) p.resolve(m.json);
    else p.reject(m.error);
  };
  const onReply = (m: FitReply) => {
    if (m.type === 'progress') return pending.get(m.id)?.onProgress?.(m.progress);
    if (m.type === 'done') settle(m.id, { json: m.json });
    else settle(m.id, { error: Object.assign(new Error(m.message), { name: m.name }) });
  };
  const spawn = () => {
    const w = new Worker(script);
    const die = (error: Error) => {
      if (dead.has(w)) return;
      dead.add(w);
      const k = idle.indexOf(w);
      if (k >= 0) {
        live.delete(w);
        idle[k] = spawn();
      }
      const id = running.get(w);
      if (id !== undefined) settle(id, { error });
    };
    w.on('message', onReply);
    w.on('error', (e: unknown) => die(e instanceof Error ? e : new Error(String(e))));
    w.on('exit', (code) => {
      if (!closing) die(new Error(`a fit thread exited (code ${code}) during the fit`));
    });
    live.add(w);
    return w;
  };
  for (let t = 0; t < threads; t++) idle.push(spawn());
  const acquire = () =>
    new Promise<Worker>((resolve) => {
      const w = idle.pop();
      if (w) resolve(w);
      else waiting.push(resolve);
    });
  const release = (w: Worker) => {
    running.delete(w);
    if (dead.has(w)) {
      live.delete(w);
      void w.terminate();
      w = spawn();
    }
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
        running.set(w, id);
        if (dead.has(w))
          return settle(id, { error: new Error('a fit thread died before the fit') });
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
      closing = true;
      await Promise.all([...live].map((w) => w.terminate()));
    },
  };
}
