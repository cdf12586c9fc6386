/**
 * The saved session in IndexedDB: the loaded data, every completed fit and the
 * checkpoint of a fit in progress. Writes are asynchronous and never awaited
 * by the UI; IndexedDB clones typed arrays itself, so nothing is serialised here.
 * A running fit's checkpoints are written by the worker (worker/checkpointStore.ts);
 * this side reads them back. Records, checks and shared writes: boundary/persist/.
 */
import type { FitEntry, LoadedData } from '../state';
import { CURRENT, done, transact } from '../../boundary/persist/idb';
import {
  toSession,
  checkCheckpoint,
  type SavedCheckpoint,
  type Session,
} from '../../boundary/persist/records';
import { addFitRecord, putData } from '../../boundary/persist/writes';
import { getBridge } from '../bridge';

/**
 * Saves new data; the fits and checkpoint of the previous data go with it.
 * Data the worker has already stored (`storedInWorker`) is not written again:
 * cloning its arrays here would block the main thread.
 */
export function saveData(data: LoadedData, now = Date.now()): Promise<void> {
  if (data.storedInWorker) return Promise.resolve();
  return putData(data, now);
}

/**
 * Adds a fit; resolves with its key (for `deleteFit`). A fit the worker made is
 * stored by the worker (cloning it here blocked the main thread at 189 ×
 * 5,000); others, and any the worker could not store, are stored from here.
 */
export async function addFit(
  entry: Pick<FitEntry, 'label' | 'origin' | 'fit'>,
): Promise<IDBValidKey> {
  const key = await getBridge()
    .storeFit(new AbortController().signal, entry)
    .catch(() => null);
  if (key !== null) return key;
  return addFitRecord({ label: entry.label, origin: entry.origin, fit: entry.fit });
}

export function deleteFit(key: IDBValidKey): Promise<void> {
  return transact(['fits'], 'readwrite', (tx) => void tx.objectStore('fits').delete(key));
}

export function loadCheckpoint(): Promise<SavedCheckpoint | null> {
  return transact(['checkpoint'], 'readonly', async (tx) =>
    checkCheckpoint(await done(tx.objectStore('checkpoint').get(CURRENT))),
  );
}

/** The saved session, or null when nothing usable is saved. */
export function loadSession(): Promise<Session | null> {
  return transact(['data', 'fits', 'checkpoint'], 'readonly', async (tx) => {
    const fitsStore = tx.objectStore('fits');
    const [data, keys, values, checkpoint] = await Promise.all([
      done(tx.objectStore('data').get(CURRENT)),
      done(fitsStore.getAllKeys()),
      done(fitsStore.getAll()),
      done(tx.objectStore('checkpoint').get(CURRENT)),
    ]);
    const fits = keys.map((key, i) => ({ key, value: values[i] as unknown }));
    return toSession(data, fits, checkpoint);
  });
}

/** Empties every store. */
export function clearSession(): Promise<void> {
  return transact(['data', 'fits', 'checkpoint'], 'readwrite', (tx) => {
    for (const name of ['data', 'fits', 'checkpoint'] as const) tx.objectStore(name).clear();
  });
}
