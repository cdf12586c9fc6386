import { describe, expect, it } from 'vitest';
import type { EngineHandle } from '../core/fit/fit';
import type { Problem } from '../core/engines/types';
import type { FitProgress } from '../core/fit/types';
import { armSearchStall, takeSearchStall } from './stall';

/** A handle whose engines are stand-ins: what is tested is when `create` resolves. */
const handle: EngineHandle = {
  name: 'fused',
  reason: 'test',
  create: async () => ({ name: 'fused', evaluate: async () => 0, dispose: () => undefined }),
};
const problem = (n: number) => ({ cells: { n } }) as unknown as Problem;
const settled = async (p: Promise<unknown>) => {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((r) => setTimeout(r, 10));
  return done;
};

describe('the search stall (test hook)', () => {
  it('is off unless armed, and armed once', () => {
    expect(takeSearchStall(new AbortController().signal, 100, () => undefined)).toBeUndefined();
    armSearchStall();
    expect(takeSearchStall(new AbortController().signal, 100, () => undefined)).toBeDefined();
    expect(takeSearchStall(new AbortController().signal, 100, () => undefined)).toBeUndefined();
  });

  it("holds the first engine of a search fold (fewer cells than the data's) until the fit is cancelled", async () => {
    armSearchStall();
    const ac = new AbortController();
    const told: FitProgress[] = [];
    const wrap = takeSearchStall(ac.signal, 100, (p) => told.push(p))!;
    const h = wrap(handle);
    expect(await settled(h.create(problem(100)))).toBe(true); // the whole data: not held
    const fold = h.create(problem(80));
    expect(await settled(fold)).toBe(false);
    expect(told.map((p) => p.phase)).toEqual(['choosing the prior strength: held (test hook)']);
    ac.abort();
    expect(await settled(fold)).toBe(true);
    expect(await settled(h.create(problem(80)))).toBe(true); // held once
  });
});
