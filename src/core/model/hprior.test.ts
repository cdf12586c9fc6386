import { describe, expect, it } from 'vitest';
import { followsStrength, specsAt } from './hprior';

describe('which prior groups follow λ', () => {
  const llmnrm = ['a', 'c', 'logS', 'delta', 'rho'].map((group) => ({ group }) as const);
  it('in a model with a positional bias or fallback: δ and ρ at λ·r; a, c, log s fixed', () => {
    const s = specsAt(llmnrm, 3, {});
    expect(s.delta!.sd).toBeCloseTo(0.9, 12); // 3 × 0.3
    expect(s.rho!.sd).toBeCloseTo(1.5, 12); // 3 × 0.5
    expect(s.a!.sd).toBe(2);
    expect(s.c!.sd).toBe(6);
    expect(s.logS!.sd).toBe(0.3);
    expect(followsStrength('a', llmnrm)).toBe(false);
    expect(followsStrength('rho', llmnrm)).toBe(true);
  });
  it("keeps the user's sds over both", () => {
    const s = specsAt(llmnrm, 3, { a: 0.7, rho: 0.2 });
    expect(s.a!.sd).toBe(0.7);
    expect(s.rho!.sd).toBe(0.2);
  });
  it("in Bock's NRM (items only) and the binary models λ scales every group", () => {
    const nrm = [{ group: 'a' }, { group: 'c' }] as const;
    const s = specsAt(nrm, 3, {});
    expect(s.a!.sd).toBe(3);
    expect(s.c!.sd).toBe(9);
    const twoPl = [{ group: 'slope' }, { group: 'd' }] as const;
    expect(specsAt(twoPl, 0.5, {}).d!.sd).toBe(1.5);
  });
  it('no-position (log s, ρ) fixes a, c and log s; λ scales ρ', () => {
    const g = ['a', 'c', 'logS', 'rho'].map((group) => ({ group }) as const);
    const s = specsAt(g, 2, {});
    expect(s.logS!.sd).toBe(0.3);
    expect(s.rho!.sd).toBe(1);
  });
});
