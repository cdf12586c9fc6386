/**
 * Saves a freshly loaded data set, and completed fits, to the session store from the worker.
 * IndexedDB structured-clones what it stores on the calling thread; at 189 ×
 * 5,000 cells that clone alone was the main thread's longest task, so the
 * copy the worker keeps anyway is stored here instead.
 */
import type { DatasetSummary } from '../core/data/summary';
import type { Dataset } from '../core/data/types';
import type { FitJson } from '../core/fit/types';
import { CURRENT, done, RECORD_VERSION, transact } from './idb';

/** The data record, in the layout the client's session store reads (client/persist/records.ts). */
export interface StoredData {
  dataset: Dataset;
  summary: DatasetSummary;
  files: string[];
  seconds: number;
}

/**
 * Replaces the stored session with this data (its old fits and checkpoint go)
 * and resolves once that is committed: true, or false when it could not be
 * stored (no IndexedDB, quota), so the client can try itself and report why.
 */
export async function storeData(rec: StoredData, now = Date.now()): Promise<boolean> {
  try {
    await transact(['data', 'fits', 'checkpoint'], 'readwrite', (tx) => {
      tx.objectStore('fits').clear();
      tx.objectStore('checkpoint').clear();
      tx.objectStore('data').put({ ...rec, version: RECORD_VERSION, savedAt: now }, CURRENT);
    });
    return true;
  } catch {
    return false;
  }
}

/** A completed fit in the layout the client's session store reads (client/persist/records.ts). */
export interface StoredFit {
  label: string;
  origin: 'fit' | 'import';
  fit: FitJson;
}

/**
 * Adds a fit to the session store from the worker, which holds the fit anyway
 * (keptFits.ts); resolves with its store key once committed, or null when it
 * could not be stored, so the client can try itself and report why.
 */
export async function storeFit(rec: StoredFit, now = Date.now()): Promise<IDBValidKey | null> {
  try {
    return await transact(['fits'], 'readwrite', (tx) =>
      done(tx.objectStore('fits').add({ ...rec, version: RECORD_VERSION, savedAt: now })),
    );
  } catch {
    return null;
  }
}
