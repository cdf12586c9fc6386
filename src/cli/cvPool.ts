/** Cross-validation's fits in worker threads, for the commands that run it (evaluate cv, report). */
import os from 'node:os';
import type { Dataset } from '../core/data/types';
import { MAX_THREADS, threadsFor } from '../core/engines/parallel/engine';
import type { EvalRunOptions } from '../core/eval/common';
import type { EngineHandle } from '../core/fit/engineHandle';
import { createFitPool } from '../node/fitPool';
import { UsageError } from './args';

/**
 * How many fits run at once: `--jobs`, or by default the cores (up to 8) when
 * each fit's engine would run on one thread anyway (a fold's cells below
 * threadsFor's bar, on the wasm or fused engine); else 1, and each fit spreads
 * its cells over the threads instead. Fits are the same either way.
 */
function cvJobs(ds: Dataset, engine: EngineHandle, requested?: number): number {
  if (requested !== undefined) {
    if (!Number.isInteger(requested) || requested < 1)
      throw new UsageError('--jobs must be an integer ≥ 1.');
    if (requested > 1 && engine.name !== 'wasm' && engine.name !== 'fused')
      throw new UsageError('--jobs above 1 needs --engine wasm or fused.');
    return requested;
  }
  if (engine.name !== 'wasm' && engine.name !== 'fused') return 1;
  const cores = os.availableParallelism();
  return threadsFor(ds.J * ds.I, cores) === 1 ? Math.min(MAX_THREADS, cores) : 1;
}

/** The pool for a run (none when one fit at a time): its crossValidate options and close(). */
export function cvPool(
  ds: Dataset,
  engine: EngineHandle,
  requested?: number,
): { options: Pick<EvalRunOptions, 'fitter' | 'jobs'>; close(): Promise<void> } {
  const jobs = cvJobs(ds, engine, requested);
  if (jobs === 1) return { options: {}, close: async () => {} };
  const pool = createFitPool(jobs, { name: engine.name, reason: engine.reason });
  return { options: { fitter: pool.fit, jobs }, close: pool.close };
}
