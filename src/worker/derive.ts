import { flagItems } from '../core/bank/flags';
import type { Dataset } from '../core/data/types';
import { deriveStats } from '../core/fit/derive';
import type { FitJson } from '../core/fit/types';
import type { DerivedReply } from '../boundary/protocol';
import { checkFitOf } from './psych';

/** Derived item statistics and flags, if `fit` belongs to `ds` (same items and LLMs, in order). */
export function deriveInWorker(fit: FitJson, ds: Dataset): DerivedReply {
  checkFitOf(fit, ds);
  return { derived: deriveStats(fit, ds), flags: flagItems(fit, ds) };
}
