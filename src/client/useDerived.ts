import { useEffect, useState } from 'react';
import { flagItems, type ItemFlag } from '../core/bank/flags';
import type { Dataset } from '../core/data/types';
import type { FitJson } from '../core/fit/types';
import { getBridge, isAbort } from './bridge';
import { deriveStats, type Derived } from '../core/fit/derive';

export interface DerivedState {
  fit: FitJson;
  derived: Derived;
  flags: ItemFlag[];
}

/**
 * The views' item statistics and flags for `fit`, computed in the worker so a
 * large bank never blocks the main thread. Null until they arrive. If the
 * worker cannot (it holds other data, e.g. a fit.json loaded with its data
 * before the worker had them), they are computed here instead.
 */
export function useDerived(fit: FitJson, ds: Dataset): DerivedState | null {
  const [state, setState] = useState<DerivedState | null>(null);
  useEffect(() => {
    const ac = new AbortController();
    getBridge()
      .derive(ac.signal, fit)
      .then(
        (r) => setState({ fit, ...r }),
        (e: unknown) => {
          if (isAbort(e) || ac.signal.aborted) return;
          setState({ fit, derived: deriveStats(fit, ds), flags: flagItems(fit, ds) });
        },
      );
    return () => ac.abort();
  }, [fit, ds]);
  return state?.fit === fit ? state : null;
}
