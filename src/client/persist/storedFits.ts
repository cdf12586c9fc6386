import type { FitEntry } from '../state';

/** The store operations on fits that `StoredFits` drives (store.ts's addFit and deleteFit). */
export interface FitStore {
  add(entry: FitEntry): Promise<IDBValidKey>;
  remove(key: IDBValidKey): Promise<void>;
}

/**
 * Which of the app's fits the store holds, by fit id: the reducer gives every
 * fit entry an id that is never reused within a page, so an id names one fit
 * for as long as it is listed. A restored session's fits come back under new
 * ids, in the order they were saved; their store keys wait here until the
 * reducer has listed them, so they are neither added again nor removed early.
 */
export class StoredFits {
  private readonly keys = new Map<number, Promise<IDBValidKey>>();
  private restored: IDBValidKey[] = [];

  constructor(private readonly store: FitStore) {}

  /** The store keys of a restored session's fits, in the order the restore lists them. */
  restoring(keys: readonly IDBValidKey[]): void {
    this.restored = [...keys];
  }

  /** Forgets every fit: new data replaced them in the store, or the store was emptied. */
  clear(): void {
    this.keys.clear();
    this.restored = [];
  }

  /**
   * Brings the store in line with the listed `fits`: a held fit no longer
   * listed is deleted, a listed fit not held is added (or takes the next
   * restored key). Returns the writes started.
   */
  sync(fits: readonly FitEntry[]): Promise<unknown>[] {
    const writes: Promise<unknown>[] = [];
    const listed = new Set(fits.map((f) => f.id));
    for (const [id, key] of this.keys) {
      if (listed.has(id)) continue;
      this.keys.delete(id);
      writes.push(key.then((k) => this.store.remove(k)));
    }
    for (const f of fits) {
      if (this.keys.has(f.id)) continue;
      const restored = this.restored.shift();
      if (restored !== undefined) {
        this.keys.set(f.id, Promise.resolve(restored));
        continue;
      }
      const key = this.store.add(f);
      this.keys.set(f.id, key);
      writes.push(key);
    }
    // A restore lists its data and all its fits in one update; a key still
    // waiting after that belongs to no fit, and must not go to a later one.
    if (fits.length) this.restored = [];
    return writes;
  }
}
