import { describe, expect, it } from 'vitest';
import type { FitJson } from '../../core/fit/types';
import type { FitEntry } from '../state';
import { StoredFits } from './storedFits';

/** A fit entry with id `id` (the FitJson is never read). */
const entry = (id: number): FitEntry => ({
  id,
  label: `#${id}`,
  origin: 'fit',
  fit: {} as FitJson,
});

/** A store that hands out keys 100, 101, … and records what it was asked. */
function fakeStore() {
  const log: string[] = [];
  let next = 100;
  return {
    log,
    store: {
      add: async (f: FitEntry) => {
        const key = next++;
        log.push(`add ${f.id} as ${key}`);
        return key;
      },
      remove: async (key: IDBValidKey) => {
        log.push(`remove ${String(key)}`);
      },
    },
  };
}

describe('StoredFits', () => {
  it('adds each new fit once and deletes a removed one by its key', async () => {
    const { log, store } = fakeStore();
    const s = new StoredFits(store);
    await Promise.all(s.sync([entry(1)]));
    await Promise.all(s.sync([entry(1), entry(2)]));
    // A re-render with the same fits writes nothing.
    expect(s.sync([entry(1), entry(2)])).toEqual([]);
    await Promise.all(s.sync([entry(2)]));
    expect(log).toEqual(['add 1 as 100', 'add 2 as 101', 'remove 100']);
  });

  it('keys fits by id, not by object: an equal-looking entry under a new id is a new fit', async () => {
    const { log, store } = fakeStore();
    const s = new StoredFits(store);
    const a = entry(1);
    await Promise.all(s.sync([a]));
    await Promise.all(s.sync([{ ...a, id: 2 }]));
    // A removal waits for its key, so it lands after the add started in the same sync.
    expect(log).toEqual(['add 1 as 100', 'add 2 as 101', 'remove 100']);
  });

  it('gives restored fits their saved keys in order, and removes them by those keys', async () => {
    const { log, store } = fakeStore();
    const s = new StoredFits(store);
    s.restoring(['k1', 'k2']);
    // Not yet listed: nothing is written, nothing removed.
    expect(s.sync([])).toEqual([]);
    expect(s.sync([entry(7), entry(8)])).toEqual([]);
    await Promise.all(s.sync([entry(8), entry(9)]));
    expect(log).toEqual(['add 9 as 100', 'remove k1']);
  });

  it('drops restored keys that no listed fit took, so a later fit is added', async () => {
    const { log, store } = fakeStore();
    const s = new StoredFits(store);
    s.restoring(['k1', 'k2']);
    expect(s.sync([entry(1)])).toEqual([]);
    await Promise.all(s.sync([entry(1), entry(2)]));
    expect(log).toEqual(['add 2 as 100']);
  });

  it('forgets everything on clear (new data or an emptied store)', async () => {
    const { log, store } = fakeStore();
    const s = new StoredFits(store);
    s.restoring(['k1']);
    await Promise.all(s.sync([entry(1), entry(2)]));
    s.clear();
    await Promise.all(s.sync([entry(3)]));
    expect(log).toEqual(['add 2 as 100', 'add 3 as 101']);
  });
});
