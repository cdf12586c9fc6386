import { describe, expect, it } from 'vitest';
import { createFitPool } from './fitPool';
import type { Dataset } from '../core/data/types';

const script = new URL('../../test/support/crashThread.mjs', import.meta.url);
const ds = {} as Dataset;
const engine = { name: 'fused' as const, reason: 'test' };
type Answer = { model: string; threadId: number };

describe('the CLI fit pool when a thread dies', () => {
  it('fails only the fit that thread ran, and a fresh thread runs the next', async () => {
    const pool = createFitPool(1, engine, script);
    try {
      const first = (await pool.fit(ds, { model: 'llmnrm' }, {})) as unknown as Answer;
      expect(first.model).toBe('llmnrm');
      await expect(pool.fit(ds, { model: 'crash' as never }, {})).rejects.toThrow(
        /a fit thread exited \(code 3\) during the fit/,
      );
      // One thread in the pool: before the fix this fit went to the dead thread and never ended.
      const next = (await pool.fit(ds, { model: 'nrm-soft' }, {})) as unknown as Answer;
      expect(next.model).toBe('nrm-soft');
      expect(next.threadId).not.toBe(first.threadId);
    } finally {
      await pool.close();
    }
  }, 20_000);

  it('an uncaught error fails that fit only; fits on the other thread finish', async () => {
    const pool = createFitPool(2, engine, script);
    try {
      const [bad, good] = await Promise.allSettled([
        pool.fit(ds, { model: 'throw' as never }, {}),
        pool.fit(ds, { model: '2pl' }, {}),
      ]);
      expect(bad.status).toBe('rejected');
      expect(String((bad as PromiseRejectedResult).reason)).toMatch(/thread blew up/);
      expect(good.status).toBe('fulfilled');
      const after = (await pool.fit(ds, { model: 'llmnrm' }, {})) as unknown as Answer;
      expect(after.model).toBe('llmnrm');
    } finally {
      await pool.close();
    }
  }, 20_000);
});
