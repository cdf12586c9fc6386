import { flagItems } from '../core/bank/flags';
import type { Dataset } from '../core/data/types';
import { deriveStats } from '../core/fit/derive';
import type { FitJson } from '../core/fit/types';
import type { DerivedReply } from '../boundary/protocol';

/** Derived item statistics and flags, if `fit` belongs to `ds` (same items and LLMs, in order). */
export function deriveInWorker(fit: FitJson, ds: Dataset): DerivedReply {
  const same =
    fit.items.length === ds.I &&
    fit.llms.length === ds.J &&
    fit.items.every((it, i) => it.id === ds.itemIds[i]) &&
    fit.llms.every((l, j) => l.id === ds.llmIds[j]);
  if (!same) throw new Error('the fit is not of the data set loaded in the worker');
  return { derived: deriveStats(fit, ds), flags: flagItems(fit, ds) };
}
