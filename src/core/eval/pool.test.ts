import { describe, expect, it } from 'vitest';
import { runPool } from './pool';

/** A job that resolves after the others have had a turn `ticks` times. */
const later = async (ticks: number) => {
  for (let t = 0; t < ticks; t++) await Promise.resolve();
};

describe('runPool', () => {
  it('runs at most `width` jobs at once and returns results in job order', async () => {
    let running = 0;
    let most = 0;
    const out = await runPool(7, 3, async (q) => {
      running++;
      most = Math.max(most, running);
      await later(7 - q);
      running--;
      return q * q;
    });
    expect(out).toEqual([0, 1, 4, 9, 16, 25, 36]);
    expect(most).toBe(3);
  });

  it('starts no job after one fails, and rejects with that failure', async () => {
    const started: number[] = [];
    const run = runPool(6, 2, async (q) => {
      started.push(q);
      await later(2);
      if (q === 1) throw new Error('job 1 failed');
      return q;
    });
    await expect(run).rejects.toThrow('job 1 failed');
    // Jobs 0 and 1 started together; job 0's lane took job 2 before job 1 failed.
    expect(started).toEqual([0, 1, 2]);
  });

  it('width 1 runs the jobs one after another', async () => {
    const order: string[] = [];
    await runPool(3, 1, async (q) => {
      order.push(`start ${q}`);
      await later(1);
      order.push(`end ${q}`);
    });
    expect(order).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2', 'end 2']);
  });
});
