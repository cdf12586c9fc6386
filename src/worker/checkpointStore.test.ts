import { describe, expect, it } from 'vitest';
import type { CheckpointSaved, FitCheckpointRecord } from '../boundary/checkpoint';
import { DEFAULT_SETTINGS } from '../core/fit/types';
import { CheckpointWriter } from './checkpointStore';

const cp = (step: number): FitCheckpointRecord => ({
  x: Float64Array.of(step),
  step,
  objective: 100 - step,
  settings: DEFAULT_SETTINGS,
});

/** A store whose writes finish when the test says so. */
function slowStore() {
  const saved: number[] = [];
  const waiting: (() => void)[] = [];
  const save = (c: FitCheckpointRecord) =>
    new Promise<void>((resolve) =>
      waiting.push(() => {
        saved.push(c.step);
        resolve();
      }),
    );
  /** Finishes the write in progress and lets the writer go on. */
  const finishOne = async () => {
    waiting.shift()?.();
    await new Promise((r) => setTimeout(r, 0));
  };
  return { saved, save, finishOne, inFlight: () => waiting.length };
}

describe('CheckpointWriter', () => {
  it('stores checkpoints one at a time, the newest replacing any that waited', async () => {
    const store = slowStore();
    const told: CheckpointSaved[] = [];
    const w = new CheckpointWriter({ save: store.save, report: (s) => told.push(s) });
    w.push(cp(100));
    w.push(cp(200));
    w.push(cp(300));
    expect(store.inFlight()).toBe(1);
    await store.finishOne();
    // 200 was replaced by 300 while 100 was written.
    expect(store.inFlight()).toBe(1);
    await store.finishOne();
    await w.flush();
    expect(store.saved).toEqual([100, 300]);
    expect(told).toEqual([
      { step: 100, objective: 0 },
      { step: 300, objective: -200 },
    ]);
    // Idle again: the next checkpoint starts a write at once.
    w.push(cp(400));
    expect(store.inFlight()).toBe(1);
    await store.finishOne();
    await w.flush();
    expect(store.saved).toEqual([100, 300, 400]);
  });

  it('flush resolves only once the last checkpoint is stored', async () => {
    const store = slowStore();
    const w = new CheckpointWriter({ save: store.save, report: () => undefined });
    await w.flush(); // nothing pushed: at once
    w.push(cp(1));
    let flushed = false;
    const f = w.flush().then(() => (flushed = true));
    await new Promise((r) => setTimeout(r, 0));
    expect(flushed).toBe(false);
    await store.finishOne();
    await f;
    expect(store.saved).toEqual([1]);
  });

  it('reports a write that failed, and goes on with the next', async () => {
    let n = 0;
    const told: CheckpointSaved[] = [];
    const w = new CheckpointWriter({
      save: async () => {
        if (++n === 1) throw new Error('QuotaExceededError');
      },
      report: (s) => told.push(s),
    });
    w.push(cp(5));
    await w.flush();
    w.push(cp(6));
    await w.flush();
    expect(told).toEqual([
      { step: 5, objective: 95, error: 'Error: QuotaExceededError' },
      { step: 6, objective: 94 },
    ]);
  });

  it('stores nothing more once its signal is aborted', async () => {
    const store = slowStore();
    const ac = new AbortController();
    const told: CheckpointSaved[] = [];
    const w = new CheckpointWriter({
      save: store.save,
      report: (s) => told.push(s),
      signal: ac.signal,
    });
    w.push(cp(1));
    w.push(cp(2)); // waits behind 1
    ac.abort();
    w.push(cp(3)); // after the abort: dropped
    await store.finishOne();
    await w.flush();
    // The write in progress finishes; the waiting one and any later one are dropped.
    expect(store.saved).toEqual([1]);
    expect(store.inFlight()).toBe(0);
    expect(told.map((t) => t.step)).toEqual([1]);
  });
});
