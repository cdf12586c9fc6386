/** "Continue fitting": what a fit that stopped before converging continues with. */
import type { Dataset } from '../core/data/types';
import type { FitSettings } from '../core/fit/types';
import { freeVectorFromFit } from '../core/fit/warmstart';
import { gateOf } from '../core/model/gate';
import { isBinary } from '../core/model/types';
import type { ResumeFrom } from '../boundary/checkpoint';
import type { FitEntry } from './state';

/**
 * "Continue fitting" runs L-BFGS with the gradient test (the fast optimiser's
 * final phase, core/fit/fast.ts) from the fit's own end point until it
 * converges or is cancelled: this many steps at most, far more than any fit
 * needs (the step cap of the fit continued is not this run's).
 */
export const CONTINUE_STEPS = 1_000_000;

/**
 * The settings and start of continuing `entry`: its own model, priors and gate,
 * the fast optimiser from its end point (no warm-up), no search for λ (the
 * fit's own, or λ = 1 where an Adam fit used the reference priors), and a
 * step cap it does not reach. The result replaces `entry` (by its label).
 */
export function continuation(entry: FitEntry, ds: Dataset): [FitSettings, ResumeFrom] {
  const f = entry.fit;
  const x = freeVectorFromFit(f, ds);
  // The fit's own gate form: a fit.json from before `gate` existed ran eq. 10's.
  const gate = isBinary(f.model) ? {} : { gate: gateOf(f) };
  const lambda =
    f.settings.mode === 'default' ? { priorStrength: f.settings.priorStrength ?? 1 } : {};
  const settings: FitSettings = {
    ...f.settings,
    ...gate,
    ...lambda,
    optimizer: 'fast',
    steps: f.steps + CONTINUE_STEPS,
  };
  return [settings, { x, step: f.steps, kind: 'continue', replaces: entry.label }];
}
