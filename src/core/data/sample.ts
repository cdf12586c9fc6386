/**
 * Deterministic item sampling for data sets too big to load whole. An item is
 * kept when a hash of its id and the seed, read as a number in [0, 1), falls
 * below the fraction: the choice depends on nothing but the id, so it is the
 * same for every LLM, every file format, every file order and every run.
 */
import { DataError, type LoadWarning } from './types.ts';

/** `LoadOptions.sample`: keep about `fraction` of the items, chosen by `seed`. */
export interface SampleOptions {
  /** Share of items to keep, in (0, 1]; 1 keeps everything. */
  fraction: number;
  /** Any integer; the same seed keeps the same items. */
  seed: number;
}

/**
 * A uniform number in [0, 1) from an item id and a seed: FNV-1a over the UTF-16
 * code units, seeded, then the murmur3 finaliser to spread the bits.
 */
export function itemHash(id: string, seed: number): number {
  let h = (0x811c9dc5 ^ Math.imul(seed | 0, 0x9e3779b1)) >>> 0;
  for (let n = 0; n < id.length; n++) {
    h ^= id.charCodeAt(n);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

/** Decides per item id whether to keep it, and counts the distinct ids of each kind. */
export class ItemSampler {
  private readonly kept = new Set<string>();
  private readonly skipped = new Set<string>();

  private constructor(readonly opts: SampleOptions) {}

  /**
   * A sampler for `opts`, or null when it keeps every item (fraction 1). Throws
   * RangeError for a fraction outside (0, 1] or a non-integer seed.
   */
  static create(opts: SampleOptions | undefined): ItemSampler | null {
    if (!opts) return null;
    const { fraction, seed } = opts;
    if (!(fraction > 0 && fraction <= 1))
      throw new RangeError(`sample fraction ${fraction} is not in (0, 1]`);
    if (!Number.isSafeInteger(seed)) throw new RangeError(`sample seed ${seed} is not an integer`);
    return fraction === 1 ? null : new ItemSampler(opts);
  }

  /**
   * True when rows of this item are kept. `count` false leaves the item out of
   * `counts()` (items files list items that may have no data).
   */
  keeps(id: string, count = true): boolean {
    if (this.kept.has(id)) return true;
    if (this.skipped.has(id)) return false;
    const keep = itemHash(id, this.opts.seed) < this.opts.fraction;
    if (count) (keep ? this.kept : this.skipped).add(id);
    return keep;
  }

  /** Distinct items with data kept and skipped so far. */
  counts(): { kept: number; total: number } {
    return { kept: this.kept.size, total: this.kept.size + this.skipped.size };
  }
}

/**
 * The warning that records the sampling ("sampled 10% of items ..."). Throws
 * DataError when the sample kept none of the items that had data.
 */
export function sampleWarning(s: ItemSampler, file: string): LoadWarning {
  const { kept, total } = s.counts();
  const pct = `${Number((s.opts.fraction * 100).toPrecision(3))}%`;
  if (kept === 0 && total > 0)
    throw new DataError(
      `sampling ${pct} of items kept none of the ${total} items`,
      file,
      undefined,
      undefined,
      'a larger sample fraction or another seed',
    );
  return {
    file,
    code: 'other',
    count: kept,
    message:
      `sampled ${pct} of items (seed ${s.opts.seed}): kept ${kept} of ${total} items, ` +
      'the same items for every LLM',
  };
}
