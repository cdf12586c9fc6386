/**
 * Compact growable typed arrays: the parsers append one value per row here instead
 * of keeping row objects, so a large file costs a few bytes per value.
 */

type TypedCtor<T> = { new (length: number): T };

/** An append-only typed array that doubles its capacity when full. */
export class Growable<T extends Float32Array | Int32Array | Uint8Array | Uint16Array> {
  data: T;
  length = 0;

  constructor(
    private readonly ctor: TypedCtor<T>,
    initialCapacity = 1024,
  ) {
    this.data = new ctor(initialCapacity);
  }

  /** Appends one value. */
  push(v: number): void {
    if (this.length === this.data.length) this.reserve(this.length + 1);
    this.data[this.length++] = v;
  }

  /** Makes room for at least `n` values in total. */
  reserve(n: number): void {
    if (n <= this.data.length) return;
    let cap = Math.max(this.data.length, 16);
    while (cap < n) cap *= 2;
    const next = new this.ctor(cap);
    next.set(this.data.subarray(0, this.length) as never);
    this.data = next;
  }

  /** Appends `n` copies of `v` and returns the index of the first. */
  extend(n: number, v: number): number {
    this.reserve(this.length + n);
    const start = this.length;
    this.data.fill(v, start, start + n);
    this.length += n;
    return start;
  }

  get(i: number): number {
    return this.data[i];
  }
}

export const growF32 = (cap?: number) => new Growable(Float32Array, cap);
export const growI32 = (cap?: number) => new Growable(Int32Array, cap);
export const growU8 = (cap?: number) => new Growable(Uint8Array, cap);
