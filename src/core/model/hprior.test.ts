import { describe, expect, it } from 'vitest';
import { fixGroups, followsStrength, specsAt, type PriorGroupRef } from './hprior';

const refs = (names: PriorGroupRef['group'][]): PriorGroupRef[] =>
  names.map((group) => ({ group }));

describe('which prior groups follow λ', () => {
  it('in a model with a positional bias or fallback: δ and ρ at λ·r; a, c, log s fixed', () => {
    const g = fixGroups(refs(['a', 'c', 'logS', 'delta', 'rho']));
    const s = specsAt(g, 3, {});
    expect(s.delta!.sd).toBeCloseTo(0.9, 12); // 3 × 0.3
    expect(s.rho!.sd).toBeCloseTo(1.5, 12); // 3 × 0.5
    expect(s.a!.sd).toBe(2);
    expect(s.c!.sd).toBe(6);
    expect(s.logS!.sd).toBe(0.3);
    expect(followsStrength(g[0])).toBe(false);
    expect(followsStrength(g[4])).toBe(true);
  });
  it('unfixed groups (one-hot data: itemPriors "strength") all follow λ', () => {
    const s = specsAt(refs(['a', 'c', 'logS', 'delta', 'rho']), 3, {});
    expect(s.a!.sd).toBe(3);
    expect(s.c!.sd).toBe(9);
    expect(s.logS!.sd).toBeCloseTo(0.9, 12);
  });
  it("keeps the user's sds over both", () => {
    const s = specsAt(fixGroups(refs(['a', 'c', 'logS', 'delta', 'rho'])), 3, { a: 0.7, rho: 0.2 });
    expect(s.a!.sd).toBe(0.7);
    expect(s.rho!.sd).toBe(0.2);
  });
  it("Bock's NRM (items only) and the binary models have nothing to fix: λ scales every group", () => {
    const s = specsAt(fixGroups(refs(['a', 'c'])), 3, {});
    expect(s.a!.sd).toBe(3);
    expect(s.c!.sd).toBe(9);
    expect(specsAt(fixGroups(refs(['slope', 'd'])), 0.5, {}).d!.sd).toBe(1.5);
  });
  it('no-position (log s, ρ) fixes a, c and log s; λ scales ρ', () => {
    const s = specsAt(fixGroups(refs(['a', 'c', 'logS', 'rho'])), 2, {});
    expect(s.logS!.sd).toBe(0.3);
    expect(s.rho!.sd).toBe(1);
  });
});
