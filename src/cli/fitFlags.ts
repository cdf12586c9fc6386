/**
 * The fit flags shared by `llm-nrm fit` and the `evaluate` commands, turned
 * into FitSettings in one place.
 */
import { DEFAULT_SETTINGS, PAPER_ADAM, type FitSettings } from '../core/fit/types';
import { parsePriorOverride } from '../core/model/hprior';
import { GATE_FORMS } from '../core/model/gate';
import { num, oneOf, UsageError } from './args';

export const FIT_FLAG_USAGE =
  '[--optimizer fast|adam] [--mode default|paper] [--steps N] [--tol X] [--gtol X] [--lr X] [--prior a=1,c=2,logS=0.3,...] [--precision mixed|float64] [--curvature exact|blocks|counts] [--final-fit lbfgs|alternate] [--gate margin|eq10] [--item-priors fixed|strength]';

export const FIT_FLAG_OPTIONS = {
  optimizer: { type: 'string' },
  mode: { type: 'string' },
  steps: { type: 'string' },
  tol: { type: 'string' },
  gtol: { type: 'string' },
  lr: { type: 'string' },
  prior: { type: 'string' },
  precision: { type: 'string' },
  curvature: { type: 'string' },
  'final-fit': { type: 'string' },
  gate: { type: 'string' },
  'item-priors': { type: 'string' },
} as const;

export interface FitFlagValues {
  optimizer?: string;
  mode?: string;
  steps?: string;
  tol?: string;
  gtol?: string;
  lr?: string;
  prior?: string;
  precision?: string;
  curvature?: string;
  'final-fit'?: string;
  gate?: string;
  'item-priors'?: string;
}

/**
 * Settings from flags. Neither --optimizer nor --mode: the default (fast,
 * well-posed). --mode paper alone runs the paper's Adam (eq. 15 as published);
 * --optimizer adam alone implies paper mode.
 */
export function fitSettingsFromFlags(v: FitFlagValues, seed: number): Partial<FitSettings> {
  const mode = oneOf(
    v.mode,
    'mode',
    ['default', 'paper'] as const,
    v.optimizer === 'adam' ? 'paper' : 'default',
  );
  const optimizer = oneOf(
    v.optimizer,
    'optimizer',
    ['fast', 'adam'] as const,
    mode === 'paper' ? 'adam' : 'fast',
  );
  const s: Partial<FitSettings> = {
    optimizer,
    mode,
    steps: num(v.steps, 'steps', PAPER_ADAM.steps),
    lr: num(v.lr, 'lr', PAPER_ADAM.lr),
    seed,
  };
  if (v.tol !== undefined) s.tol = num(v.tol, 'tol', DEFAULT_SETTINGS.tol);
  if (v.gtol !== undefined) s.gtol = num(v.gtol, 'gtol', 1e-4);
  if (v.precision !== undefined)
    s.precision = oneOf(v.precision, 'precision', ['mixed', 'float64'] as const, 'mixed');
  if (v.curvature !== undefined)
    s.curvature = oneOf(v.curvature, 'curvature', ['exact', 'blocks', 'counts'] as const, 'exact');
  if (v['final-fit'] !== undefined)
    s.finalFit = oneOf(v['final-fit'], 'final-fit', ['lbfgs', 'alternate'] as const, 'lbfgs');
  if (v.gate !== undefined) {
    // The fallback gate's form (model/gate.ts): paper mode is eq. 10 exactly.
    s.gate = oneOf(v.gate, 'gate', GATE_FORMS, 'margin');
    if (mode === 'paper' && s.gate === 'margin')
      throw new UsageError(
        "--gate margin applies to the default mode; paper mode uses eq. 10's gate.",
      );
  }
  if (v['item-priors'] !== undefined) {
    // The priors on a, c and log s (core/model/hprior.ts): fixed, or one λ for every group.
    if (mode === 'paper')
      throw new UsageError('--item-priors applies to the default mode; paper mode has no priors.');
    s.itemPriors = oneOf(v['item-priors'], 'item-priors', ['fixed', 'strength'] as const, 'fixed');
  }
  if (v.prior !== undefined) {
    if (mode === 'paper')
      throw new UsageError('--prior applies to the default mode; paper mode is eq. 15 exactly.');
    try {
      s.prior = parsePriorOverride(v.prior);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  }
  return s;
}
