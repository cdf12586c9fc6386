/**
 * The Evaluate tab's defaults, as its text fields show them (from
 * core/defaults.ts, shared with the CLI), and the parsing of those fields.
 */
import {
  CALIBRATE_DEFAULTS,
  CALIBRATE_SIZES,
  COMPRESS_BUDGETS,
  COMPRESS_TAU,
} from '../../../core/defaults';
import type { ModelType } from '../../../core/model/types';

export { CURVE_MODELS, CV_MODELS } from '../../../core/defaults';
export const DEFAULT_BUDGETS = COMPRESS_BUDGETS.join(', ');
export const DEFAULT_SIZES = CALIBRATE_SIZES.map((n) => (n === Infinity ? 'all' : n)).join(', ');
export const DEFAULT_TAU = String(COMPRESS_TAU);
export const DEFAULT_CALIBRATE = {
  draws: String(CALIBRATE_DEFAULTS.draws),
  heldOut: String(CALIBRATE_DEFAULTS.heldOut),
  seed: String(CALIBRATE_DEFAULTS.seed),
  channel: CALIBRATE_DEFAULTS.scoreChannel,
};

/** A whole number in [min, max] from a text field; throws a message naming the field. */
export function parseInteger(text: string, name: string, min: number, max = Infinity): number {
  const x = Number(text.trim());
  if (text.trim() === '' || !Number.isInteger(x) || x < min || x > max)
    throw new Error(
      `${name} must be a whole number ${max === Infinity ? `≥ ${min}` : `from ${min} to ${max}`} (got "${text}").`,
    );
  return x;
}

/** A number strictly between lo and hi. */
export function parseShare(text: string, name: string, lo = 0, hi = 1): number {
  const x = Number(text.trim());
  if (text.trim() === '' || !(x > lo && x < hi))
    throw new Error(`${name} must be a number between ${lo} and ${hi} (got "${text}").`);
  return x;
}

function listItems(text: string, name: string): string[] {
  const items = text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) throw new Error(`${name}: give at least one value.`);
  return items;
}

/** Item budgets: whole numbers ≥ 1, ascending and distinct. */
export function parseBudgets(text: string): number[] {
  const out = listItems(text, 'Item budgets').map((s) => parseInteger(s, 'Each item budget', 1));
  return [...new Set(out)].sort((a, b) => a - b);
}

/** Calibration fleet sizes: whole numbers ≥ 2 or 'all' (Infinity: the whole pool). */
export function parseSizes(text: string): number[] {
  const out = listItems(text, 'Fleet sizes').map((s) =>
    s.toLowerCase() === 'all' ? Infinity : parseInteger(s, 'Each fleet size (or "all")', 2),
  );
  return [...new Set(out)].sort((a, b) => a - b);
}

/** At least one model, in the order of `all`. */
export function pickedModels(picked: readonly ModelType[], all: readonly ModelType[]): ModelType[] {
  const out = all.filter((m) => picked.includes(m));
  if (out.length === 0) throw new Error('Pick at least one model.');
  return out;
}
