/**
 * The session store's writes, shared by the worker (the data it loaded, the
 * fits and checkpoints it made: no clone of them on the main thread) and the
 * page (everything else). Each record is stamped here (records.ts).
 */
import type { FitCheckpointRecord } from '../checkpoint';
import { CURRENT, done, transact } from './idb';
import { stamp, type DataRecord, type FitRecord } from './records';

/** Replaces the stored session with this data (its old fits and checkpoint go), once committed. */
export function putData(rec: DataRecord, now = Date.now()): Promise<void> {
  return transact(['data', 'fits', 'checkpoint'], 'readwrite', (tx) => {
    tx.objectStore('fits').clear();
    tx.objectStore('checkpoint').clear();
    tx.objectStore('data').put(stamp(rec, now), CURRENT);
  });
}

/** Adds a fit; resolves with its store key once committed. */
export function addFitRecord(rec: FitRecord, now = Date.now()): Promise<IDBValidKey> {
  return transact(['fits'], 'readwrite', (tx) => done(tx.objectStore('fits').add(stamp(rec, now))));
}

/** Replaces the stored checkpoint. */
export function putCheckpoint(c: FitCheckpointRecord, now = Date.now()): Promise<void> {
  return transact(['checkpoint'], 'readwrite', (tx) => {
    tx.objectStore('checkpoint').put(stamp(c, now), CURRENT);
  });
}

/** Empties the checkpoint store. */
export function dropCheckpoint(): Promise<void> {
  return transact(['checkpoint'], 'readwrite', (tx) => {
    tx.objectStore('checkpoint').clear();
  });
}
