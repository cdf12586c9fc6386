/**
 * Saves a freshly loaded data set, and completed fits, to the session store from the worker.
 * IndexedDB structured-clones what it stores on the calling thread; at 189 ×
 * 5,000 cells that clone alone was the main thread's longest task, so the
 * copy the worker keeps anyway is stored here instead. The records and their
 * writes are boundary/persist's, which the page reads back.
 */
import type { DataRecord, FitRecord } from '../boundary/persist/records';
import { addFitRecord, putData } from '../boundary/persist/writes';

/**
 * Replaces the stored session with this data (its old fits and checkpoint go)
 * and resolves once that is committed: true, or false when it could not be
 * stored (no IndexedDB, quota), so the client can try itself and report why.
 */
export async function storeData(rec: DataRecord, now = Date.now()): Promise<boolean> {
  try {
    await putData(rec, now);
    return true;
  } catch {
    return false;
  }
}

/**
 * Adds a fit to the session store from the worker, which holds the fit anyway
 * (keptFits.ts); resolves with its store key once committed, or null when it
 * could not be stored, so the client can try itself and report why.
 */
export async function storeFit(rec: FitRecord, now = Date.now()): Promise<IDBValidKey | null> {
  try {
    return await addFitRecord(rec, now);
  } catch {
    return null;
  }
}
