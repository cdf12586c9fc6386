/**
 * Saves a freshly loaded data set to the session store from the worker.
 * IndexedDB structured-clones what it stores on the calling thread; at 189 ×
 * 5,000 cells that clone alone was the main thread's longest task, so the
 * copy the worker keeps anyway is stored here instead.
 */
import type { DatasetSummary } from '../core/data/summary';
import type { Dataset } from '../core/data/types';
import { CURRENT, RECORD_VERSION, transact } from './idb';

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
