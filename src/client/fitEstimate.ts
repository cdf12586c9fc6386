/**
 * How long a default fit of a data set will take in this tab, roughly: the
 * option entries it touches per pass × the passes a default fit makes
 * (prior-strength search included, ≈ 1,500 on the demo) × the time per entry
 * per pass measured in the browser worker (≈ 60 ns on a 2-core laptop-class
 * CPU; the demo's 24,840 entries fit in about 2–3 s). An estimate for the UI
 * to decide whether to fit without asking, not a promise.
 */
import type { Dataset } from '../core/data/types';

/** Fit on load without a click when the estimate is at most this. */
export const AUTO_FIT_SECONDS = 30;

const PASSES = 1500;
const SECONDS_PER_ENTRY_PASS = 60e-9;

// Counted once per data set: the count walks every cell, and the UI asks on each render.
const estimates = new WeakMap<Dataset, number>();

export function estimateFitSeconds(ds: Dataset): number {
  let seconds = estimates.get(ds);
  if (seconds === undefined) {
    let entries = 0;
    for (let j = 0; j < ds.J; j++)
      for (let i = 0; i < ds.I; i++) if (ds.observed[j * ds.I + i]) entries += ds.nOptions[i];
    seconds = entries * PASSES * SECONDS_PER_ENTRY_PASS;
    estimates.set(ds, seconds);
  }
  return seconds;
}
