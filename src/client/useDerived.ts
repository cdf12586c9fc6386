import { useCallback } from 'react';
import type { Dataset } from '../core/data/types';
import type { FitJson } from '../core/fit/types';
import type { DerivedReply } from '../boundary/protocol';
import { getBridge } from './bridge';
import { useWorkerResult, type WorkerResult } from './workerData';

/**
 * The views' item statistics and flags for `fit`, computed in the worker so a
 * large bank never blocks the main thread. Null until they arrive. If the
 * worker holds other data (a fit.json loaded with its data before the worker
 * had them), it is handed `ds` first (withWorkerData).
 */
export function useDerived(fit: FitJson, ds: Dataset): WorkerResult<DerivedReply> {
  const run = useCallback((signal: AbortSignal) => getBridge().derive(signal, fit), [fit]);
  return useWorkerResult(ds, run);
}
