import { describe, expect, it } from 'vitest';
import {
  DIFFICULTY_UNDEFINED,
  difficultyDefined,
  difficultyDenominator,
  difficultyValue,
  formatDifficulty,
} from './difficulty';

describe('the difficulty rule', () => {
  // Key A; distractors B, C with equal intercepts (w = ½ each), slopes 0.2 and 0.4: ā = 0.3.
  const item = (aKey: number, bSE?: number) => ({
    key: 'A',
    a: [aKey, 0.2, 0.4],
    c: [0.5, -0.1, -0.1],
    b: 9.593,
    bSE,
  });

  it('den is a_key minus the distractors’ softmax(c)-weighted slope', () => {
    expect(difficultyDenominator(item(1.3))).toBeCloseTo(1.0, 12);
    expect(difficultyDenominator({ key: 'A', b: 1, slope: 0.7 })).toBe(0.7);
  });

  it('shows b̃ ± SE when the key discriminates', () => {
    expect(difficultyDefined(item(1.3, 0.5))).toBe(true);
    expect(formatDifficulty(item(1.3, 0.5))).toBe('9.593 ± 0.500');
    expect(formatDifficulty(item(1.3))).toBe('9.593');
  });

  it('is undefined when |den| < 2ε = 0.1, whatever the SE', () => {
    // den = 0.35 − 0.3 = 0.05.
    expect(difficultyDefined(item(0.35, 0.2))).toBe(false);
    expect(formatDifficulty(item(0.35, 3435.706))).toBe(DIFFICULTY_UNDEFINED);
    expect(difficultyValue(item(0.35))).toBeNaN();
    // den = 0.41 − 0.3 = 0.11: defined (without an SE to say otherwise).
    expect(difficultyDefined(item(0.41))).toBe(true);
  });

  it('is undefined when its SE exceeds the θ range −4…4 (8)', () => {
    expect(difficultyDefined(item(1.3, 8))).toBe(true);
    expect(difficultyDefined(item(1.3, 8.01))).toBe(false);
    expect(formatDifficulty(item(1.3, 3435.706))).toBe(DIFFICULTY_UNDEFINED);
  });

  it('binary items: the slope is the denominator', () => {
    expect(difficultyDefined({ key: 'A', b: -2, slope: 0.05 })).toBe(false);
    expect(formatDifficulty({ key: 'A', b: -2, slope: 1.2, bSE: 0.3 }, 2)).toBe('-2.00 ± 0.30');
    expect(formatDifficulty({ key: 'A', b: NaN })).toBe('—');
  });
});
