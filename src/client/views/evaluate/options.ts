/**
 * The Evaluate tab's defaults and the parsing of its text fields. Defaults
 * mirror the core's (CV_DEFAULT_MODELS, COMPRESS_MODELS, DEFAULT_BUDGETS,
 * CALIBRATE_DEFAULT_SIZES), restated here so the page does not bundle the
 * fitting code that lives beside them.
 */
import { MODEL_TYPES, type ModelType } from '../../../core/model/types';

/** Table 1 fits every model type, in the paper's order. */
export const CV_MODELS: readonly ModelType[] = MODEL_TYPES;
/** Figs 3a and 3b compare the LLM-NRM with Bock's NRM and the 2PL. */
export const CURVE_MODELS: readonly ModelType[] = ['llmnrm', 'nrm-soft', '2pl'];
export const DEFAULT_BUDGETS = '5, 10, 20, 41, 100, 200, 500, 1000';
export const DEFAULT_SIZES = '5, 10, 20, 40, all';

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
