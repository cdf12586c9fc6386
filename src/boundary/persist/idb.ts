/**
 * A thin promise layer over the raw IndexedDB API: one connection, opened on
 * first use, and one helper that runs a transaction to completion. Both the
 * worker (which saves a freshly loaded data set, so the main thread never
 * structured-clones its arrays) and the client's session store use it; it
 * needs only IndexedDB, which pages and workers both have. What is stored,
 * and the checks a record read back must pass, are in records.ts; the writes
 * both sides share in writes.ts.
 */

export const DB_NAME = 'llm-nrm-workbench';
const DB_VERSION = 1;

/** Object stores: the loaded data (one record), completed fits, a running fit's checkpoint. */
export type StoreName = 'data' | 'fits' | 'checkpoint';
const STORES: { name: StoreName; autoIncrement: boolean }[] = [
  { name: 'data', autoIncrement: false },
  { name: 'fits', autoIncrement: true },
  { name: 'checkpoint', autoIncrement: false },
];

/** The key of the one data record and the one checkpoint record. */
export const CURRENT = 'current';

let opening: Promise<IDBDatabase> | null = null;

/** Resolves with a request's result, rejects with its error. */
export function done<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

function open(): Promise<IDBDatabase> {
  if (typeof indexedDB === 'undefined')
    return Promise.reject(new Error('this browser offers no IndexedDB'));
  const req = indexedDB.open(DB_NAME, DB_VERSION);
  req.onupgradeneeded = () => {
    const db = req.result;
    for (const s of STORES)
      if (!db.objectStoreNames.contains(s.name))
        db.createObjectStore(s.name, { autoIncrement: s.autoIncrement });
  };
  return done(req).then((db) => {
    // Another tab upgrading the schema: let it, and reopen on next use.
    db.onversionchange = () => {
      db.close();
      opening = null;
    };
    db.onclose = () => {
      opening = null;
    };
    return db;
  });
}

function db(): Promise<IDBDatabase> {
  opening ??= open().catch((e: unknown) => {
    opening = null;
    throw e;
  });
  return opening;
}

/**
 * Runs `work` in one transaction over `stores` and resolves with its result
 * once the transaction has committed (so a write is on disk, not just queued).
 * Read-write transactions over the same stores run in the order they were
 * started, which keeps "save data, then add a fit" in order.
 */
export async function transact<T>(
  stores: StoreName[],
  mode: IDBTransactionMode,
  work: (tx: IDBTransaction) => Promise<T> | T,
): Promise<T> {
  const tx = (await db()).transaction(stores, mode);
  const finished = new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
  let result: T;
  try {
    result = await work(tx);
  } catch (e) {
    try {
      tx.abort();
    } catch {
      // Already committed or aborted.
    }
    await finished.catch(() => undefined);
    throw e;
  }
  await finished;
  return result;
}
