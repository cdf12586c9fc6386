/**
 * Reading single cells (numbers, option labels, option counts) and turning a
 * cell's raw values into an option distribution.
 */
import { DataError, MAX_OPTIONS, OPTION_LABELS, type ValueKind, quoted } from './types.ts';

/** Slack for rounding in files that declare probabilities or log-probabilities. */
export const ROUNDING_SLACK = 1e-6;
/** Raw sums closer to 1 than this are taken as already normalised (kept bit-exact). */
const NORMALISED_EPS = 1e-6;

/** Where a value came from, for error messages. */
export interface Place {
  file: string;
  line: number;
  column: string;
}

/** Labels A..(count-1) as a short range for messages, e.g. 'A..D'. */
export function labelRange(count: number): string {
  return count <= 1 ? 'A' : `A..${OPTION_LABELS[Math.min(count, MAX_OPTIONS) - 1]}`;
}

/**
 * Parses a numeric cell. Blank (or whitespace) gives NaN, meaning "missing";
 * anything else that is not a finite decimal number throws (so do hexadecimal,
 * binary and octal literals, values like 1e999 that overflow to infinity, and
 * values beyond the float32 range, which would become infinite when stored).
 */
export function readNumber(s: string, at: Place): number {
  const t = s.trim();
  if (t === '') return NaN;
  const v = Number(t);
  if (Number.isFinite(Math.fround(v)) && !isRadixLiteral(t)) return v;
  const bad = (message: string, expected = 'a finite number') =>
    new DataError(message, at.file, at.line, at.column, expected);
  if (Number.isFinite(v) && !isRadixLiteral(t))
    throw bad(
      `value ${quoted(t)} is beyond the float32 range the data set is stored in`,
      'a number between -3.4e38 and 3.4e38',
    );
  if (Number.isNaN(v) && /^[-+]?nan$/i.test(t)) throw bad(`value ${quoted(t)} is NaN`);
  if (/^[-+]?inf(inity)?$/i.test(t) || v === Infinity || v === -Infinity)
    throw bad(`value ${quoted(t)} is infinite`);
  const hint = /^n\/?a$/i.test(t) ? ' (leave the cell blank for a missing option)' : '';
  throw bad(`non-numeric value ${quoted(t)}${hint}`);
}

/** True for '0x1F', '0b1', '0o7': literals `Number` reads but a CSV number is not. */
function isRadixLiteral(t: string): boolean {
  if (t.length < 3 || t.charCodeAt(0) !== 48) return false;
  const c = t.charCodeAt(1) | 32;
  return c === 120 || c === 98 || c === 111;
}

/** Parses an option count; must be an integer in 2..10. */
export function readOptionCount(s: string, at: Place): number {
  const t = s.trim();
  const v = Number(t);
  if (t === '' || !Number.isInteger(v) || v < 2 || v > MAX_OPTIONS)
    throw new DataError(
      `n_options ${quoted(t)} is not an integer in 2..${MAX_OPTIONS}`,
      at.file,
      at.line,
      at.column,
      `an integer from 2 to ${MAX_OPTIONS}`,
    );
  return v;
}

/** 0-based index of an option label A..J (case-insensitive), or -1. */
export function labelIndex(s: string): number {
  const t = s.trim().toUpperCase();
  return t.length === 1 ? (OPTION_LABELS as readonly string[]).indexOf(t) : -1;
}

/**
 * Parses a key or option label and checks it against the item's option count
 * (pass 0 when the count is not known yet).
 */
export function readLabel(s: string, nOptions: number, at: Place, what = 'key'): number {
  const k = labelIndex(s);
  const expected = `one of ${labelRange(nOptions || MAX_OPTIONS)}`;
  if (k < 0)
    throw new DataError(
      `${what} ${quoted(s.trim())} is not an option label`,
      at.file,
      at.line,
      at.column,
      expected,
    );
  if (nOptions > 0 && k >= nOptions)
    throw new DataError(
      `${what} ${quoted(s.trim())} is beyond the item's ${nOptions} options (n_options=${nOptions})`,
      at.file,
      at.line,
      at.column,
      expected,
    );
  return k;
}

/** Checks one value against a declared value kind; throws on a value the kind cannot hold. */
export function checkDeclared(v: number, kind: ValueKind, at: Place): void {
  if (kind === 'logprob') {
    if (v > ROUNDING_SLACK)
      throw new DataError(
        `log-probability ${v} is positive`,
        at.file,
        at.line,
        at.column,
        'a value <= 0',
      );
    return;
  }
  if (v < 0)
    throw new DataError(
      `negative ${kind === 'prob' ? 'probability' : 'weight'} ${v}`,
      at.file,
      at.line,
      at.column,
      'a value >= 0',
    );
  if (kind === 'prob' && v > 1 + ROUNDING_SLACK)
    throw new DataError(
      `probability ${v} is above 1`,
      at.file,
      at.line,
      at.column,
      'a value in [0, 1]',
    );
}

/** Outcome of normalising one cell. */
export interface CellResult {
  /** Raw probability mass over the item's options (NaN for weights). */
  mass: number;
  /** Options with no value (given zero mass). */
  missing: number;
  /** False when the cell has no mass at all. */
  ok: boolean;
}

/**
 * Normalises `obs[off .. off+K)` in place. NaN entries are missing options and
 * get zero mass. Log-probabilities go through a max-shifted softmax; probabilities
 * and weights are divided by their sum unless it is already 1 within 1e-6.
 */
export function normaliseCell(
  obs: Float32Array,
  off: number,
  K: number,
  kind: ValueKind,
  out: CellResult,
): void {
  let missing = 0;
  if (kind === 'logprob') {
    let m = -Infinity;
    for (let k = 0; k < K; k++) {
      const v = obs[off + k];
      if (Number.isNaN(v)) missing++;
      else if (v > m) m = v;
    }
    out.missing = missing;
    if (m === -Infinity) {
      out.ok = false;
      out.mass = 0;
      return;
    }
    let t = 0;
    for (let k = 0; k < K; k++) {
      const v = obs[off + k];
      t += Number.isNaN(v) ? 0 : Math.exp(v - m);
    }
    for (let k = 0; k < K; k++) {
      const v = obs[off + k];
      obs[off + k] = Number.isNaN(v) ? 0 : Math.exp(v - m) / t;
    }
    out.ok = true;
    out.mass = Math.exp(m) * t;
    return;
  }
  let s = 0;
  for (let k = 0; k < K; k++) {
    const v = obs[off + k];
    if (Number.isNaN(v)) {
      missing++;
      obs[off + k] = 0;
    } else s += v;
  }
  out.missing = missing;
  out.ok = s > 0;
  out.mass = kind === 'prob' ? s : NaN;
  if (!out.ok || Math.abs(s - 1) <= NORMALISED_EPS) return;
  for (let k = 0; k < K; k++) obs[off + k] /= s;
}
