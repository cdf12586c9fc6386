import type { FitJson } from '../core/fit/types';

/**
 * The last few fits this worker produced, by a reference number. A fit's JSON
 * at 189 × 5,000 is tens of megabytes of objects; structured-cloning it back
 * into the worker (for item statistics) or into IndexedDB (to keep the
 * session) on the main thread was the longest task between a fit's end and
 * its curves. With a reference the client asks for either without sending it.
 */
export class KeptFits {
  private readonly fits = new Map<number, FitJson>();
  private next = 1;

  constructor(private readonly capacity = 4) {}

  /** Keeps `fit` (dropping the oldest beyond capacity); returns its reference. */
  add(fit: FitJson): number {
    const ref = this.next++;
    this.fits.set(ref, fit);
    for (const old of this.fits.keys()) {
      if (this.fits.size <= this.capacity) break;
      this.fits.delete(old);
    }
    return ref;
  }

  /** The fit kept under `ref`, or null when it was dropped (or never kept here). */
  get(ref: number): FitJson | null {
    return this.fits.get(ref) ?? null;
  }
}
