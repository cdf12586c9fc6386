/**
 * When an item's difficulty is a number worth showing: one rule for every view,
 * the report and the CLI.
 *
 * b̃ (eq. 10) divides by den = a_key − Σ_{k≠key} w_k a_k, the key's slope
 * against the distractors' (w = softmax of the distractors' intercepts). When
 * the key barely discriminates against them, den ≈ 0 and b̃ is a ratio of noise
 * (the demo: 9.593 ± 3435.706). It is undefined here when either
 *
 * - |den| < 2ε (ε = BTILDE_EPS): where the fit's smooth guard
 *   num·den/(den² + ε²) differs from the paper's num/den by more than 20%, so
 *   the stored number is not the paper's b̃ either (the items `guardedItems`
 *   lists and the fit's note counts); or
 * - its standard error exceeds DIFFICULTY_SE_MAX = 8, the whole θ range the
 *   charts draw (−4…4): an estimate that uncertain places the item nowhere on
 *   the ability scale. Through the delta method SE(b̃) ≈ |b̃|·SE(den)/|den|, so
 *   this is den small against its own uncertainty: again a key that does not
 *   discriminate.
 *
 * Binary models: b = −d/a with the slope a as den, under the same two tests.
 */
import { OPTION_LABELS } from '../data/types';
import { BTILDE_EPS } from './types';

/** Below this |den| the difficulty is undefined (the guard's 20% point, 2ε). */
export const DIFFICULTY_DEN_MIN = 2 * BTILDE_EPS;
/** Above this standard error (θ units: the width of −4…4) the difficulty is undefined. */
export const DIFFICULTY_SE_MAX = 8;
/** What the screen, the report and the CLI show instead of an undefined difficulty. */
export const DIFFICULTY_UNDEFINED = 'undefined (key not discriminating)';

/** The parts of a fitted item the rule reads (fit.json's ItemResult, a bank item). */
export interface DifficultyInput {
  key: string;
  b: number;
  bSE?: number;
  /** Nominal: per-option slopes and intercepts. */
  a?: number[];
  c?: number[];
  /** Binary: the slope. */
  slope?: number;
}

/** den of eq. 10 (nominal) or the slope (binary); NaN when the item has neither. */
export function difficultyDenominator(it: DifficultyInput): number {
  if (!it.a || !it.c) return it.slope ?? NaN;
  const g = (OPTION_LABELS as readonly string[]).indexOf(it.key);
  if (g < 0 || g >= it.a.length) return NaN;
  let m = -Infinity;
  for (let k = 0; k < it.a.length; k++) if (k !== g) m = Math.max(m, it.c[k]);
  let z = 0;
  let abar = 0;
  for (let k = 0; k < it.a.length; k++) {
    if (k === g) continue;
    const w = Math.exp(it.c[k] - m);
    z += w;
    abar += w * it.a[k];
  }
  return it.a[g] - abar / z;
}

/** Whether the item's difficulty is defined under the rule above. */
export function difficultyDefined(it: DifficultyInput): boolean {
  if (!Number.isFinite(it.b)) return false;
  const den = difficultyDenominator(it);
  if (Number.isFinite(den) && Math.abs(den) < DIFFICULTY_DEN_MIN) return false;
  if (it.bSE !== undefined && Number.isFinite(it.bSE) && it.bSE > DIFFICULTY_SE_MAX) return false;
  return true;
}

/** The difficulty when defined, else NaN (sorts last, exports as an empty cell). */
export const difficultyValue = (it: DifficultyInput): number =>
  difficultyDefined(it) ? it.b : NaN;

/**
 * "1.234 ± 0.056" (the SE when there is one), "1.234", "—" for no number, or
 * DIFFICULTY_UNDEFINED.
 */
export function formatDifficulty(it: DifficultyInput, digits = 3): string {
  if (!Number.isFinite(it.b)) return '—';
  if (!difficultyDefined(it)) return DIFFICULTY_UNDEFINED;
  return it.bSE !== undefined && Number.isFinite(it.bSE)
    ? `${it.b.toFixed(digits)} ± ${it.bSE.toFixed(digits)}`
    : it.b.toFixed(digits);
}
