/**
 * The defaults the CLI and the UI share, in one place so both say the same.
 * Constants only: the page imports this without bundling the fitting code.
 */
import type { FlagOptions } from './bank/flagOptions';
import { MODEL_TYPES, type ModelType } from './model/types';

/** The model a fit uses unless told otherwise. */
export const DEFAULT_MODEL: ModelType = 'llmnrm';

/** Table 1 fits every model type, in the paper's order. */
export const CV_MODELS: readonly ModelType[] = MODEL_TYPES;

/** Figs 3a and 3b compare the LLM-NRM with Bock's NRM and the 2PL. */
export const CURVE_MODELS: readonly ModelType[] = ['llmnrm', 'nrm-soft', '2pl'];

/** Item budgets of the compression curve (Fig. 3a). */
export const COMPRESS_BUDGETS: readonly number[] = [5, 10, 20, 41, 100, 200, 500, 1000];

/** τ a budget must reach to count as enough: the paper's figure at 41 items. */
export const COMPRESS_TAU = 0.85;

/** Calibration fleet sizes of Fig. 3b; Infinity is the whole pool. */
export const CALIBRATE_SIZES: readonly number[] = [5, 10, 20, 40, Infinity];

/**
 * Fig. 3b's other settings: seeded draws, the share of LLMs held out as new
 * ones, the seed, and the channel the new LLMs are scored from.
 */
export const CALIBRATE_DEFAULTS = {
  draws: 3,
  heldOut: 0.25,
  seed: 1,
  scoreChannel: 'option',
} as const satisfies {
  draws: number;
  heldOut: number;
  seed: number;
  scoreChannel: 'option' | 'binary';
};

/** Adaptive tests stop at 41 items (the paper's short test); `select` picks as many. */
export const CAT_DEFAULTS = { maxItems: 41, selectK: 41 } as const;

/** Thresholds of the item flags; `core/bank/flags.ts` says how each was chosen. */
export const FLAG_DEFAULTS: Readonly<Required<FlagOptions>> = {
  minKeyGain: 3,
  minSupport: 2,
  minTopShare: 0.5,
  minKeySlope: 0,
  saturation: 0.95,
  minDuplicateLlms: 10,
  minDuplicateMinority: 3,
};
