import { useEffect, useState } from 'react';
import type { Dataset } from '../core/data/types';
import { isDataMismatch } from '../boundary/psychProtocol';
import { getBridge, isAbort } from './bridge';

/**
 * Runs a worker call about the data set `ds`. If the worker holds other data
 * (a DataMismatchError: e.g. a fit.json restored before the worker had its
 * data), it is handed `ds` and the call runs once more; every other error
 * rejects as it came. Statistics are never computed on the page.
 */
export async function withWorkerData<T>(
  signal: AbortSignal,
  ds: Dataset,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  try {
    return await run(signal);
  } catch (e) {
    if (!isDataMismatch(e)) throw e;
    await getBridge().useDataset(signal, ds);
    return run(signal);
  }
}

/** A worker result: null while it runs, then its value or the error's message. */
export type WorkerResult<T> = { value: T } | { error: string } | null;

/**
 * The result of `run` on the data set `ds` (withWorkerData), run again when
 * `run` or `ds` changes (memoise `run`) and cancelled when they do.
 */
export function useWorkerResult<T>(
  ds: Dataset,
  run: ((signal: AbortSignal) => Promise<T>) | null,
): WorkerResult<T> {
  const [state, setState] = useState<{ run: unknown; ds: Dataset; result: WorkerResult<T> } | null>(
    null,
  );
  useEffect(() => {
    if (!run) return;
    const ac = new AbortController();
    withWorkerData(ac.signal, ds, run).then(
      (value) => setState({ run, ds, result: { value } }),
      (e: unknown) => {
        if (isAbort(e) || ac.signal.aborted) return;
        setState({ run, ds, result: { error: e instanceof Error ? e.message : String(e) } });
      },
    );
    return () => ac.abort();
  }, [ds, run]);
  return state && state.run === run && state.ds === ds ? state.result : null;
}
