/**
 * Why a fit stopped, in words: the one sentence the app's banner, the CLI and
 * the report give (optim/types.ts defines the reasons).
 */
import { gateOf, type GateForm } from '../model/gate';
import { STALL_STEPS, type StopReason } from './optim/types';

export interface StopFacts {
  stopReason?: StopReason;
  steps: number;
  gradNorm?: number;
  optimizer?: string;
  gate?: GateForm;
  /** The gate's largest value; present only for models with the fallback gate. */
  gateMax?: number;
}

/**
 * True when more steps of the same objective cannot make the fit converge, so
 * "Continue fitting" is not offered: it stalled at a kink.
 */
export function continuingCannotHelp(fit: StopFacts): boolean {
  return fit.stopReason === 'stalled';
}

/** The sentence after "Not converged." (or after "converged") for a fit. */
export function stopWords(fit: StopFacts): string {
  const norm = fit.gradNorm === undefined ? '' : `, gradient norm ${fit.gradNorm.toExponential(1)}`;
  switch (fit.stopReason) {
    case 'gradient':
      return `Converged (gradient test${norm}) after ${fit.steps} steps.`;
    case 'stalled': {
      const kink =
        fit.gateMax !== undefined && gateOf(fit) === 'eq10'
          ? " Eq. 10's gate divides by an item's key slope where it crosses zero, so its objective has a kink there; the default mode's margin gate has none and converges."
          : '';
      return `It stalled after ${fit.steps} steps${norm}: the objective stopped changing for ${STALL_STEPS} steps running while the gradient test still failed, so the optimiser is creeping along a kink and more steps would not converge it.${kink}`;
    }
    case 'no-progress':
      return `It stopped after ${fit.steps} steps${norm}: the line search could not lower the objective further at this precision while the gradient test still failed.`;
    default:
      return fit.optimizer === 'adam'
        ? `Adam runs a fixed ${fit.steps} steps (the paper's method) and has no convergence test.`
        : `It reached its step cap of ${fit.steps} steps${norm} before the gradient test passed.`;
  }
}
