import { describe, expect, it } from 'vitest';
import { fmtCount } from './format';

describe('fmtCount', () => {
  it('groups thousands with commas, hand-written values', () => {
    expect(fmtCount(0)).toBe('0');
    expect(fmtCount(999)).toBe('999');
    expect(fmtCount(1000)).toBe('1,000');
    expect(fmtCount(945000)).toBe('945,000');
    expect(fmtCount(5963706)).toBe('5,963,706');
    expect(fmtCount(-12345)).toBe('-12,345');
    expect(fmtCount(1234.6)).toBe('1,235');
    expect(fmtCount(NaN)).toBe('—');
  });
});
