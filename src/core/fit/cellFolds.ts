/**
 * Folds of the observed cells, and a share of the items, that depend on the
 * cells' values only: not on the names of the LLMs or items, nor on their
 * order or the file they came from. The prior-strength search (strength.ts)
 * cross-validates on these folds, so the same cells under other names or in
 * another order give the same folds, the same λ and the same fit.
 *
 * Each cell is known by a hash of the order of its options by probability
 * (robust to the last bits of the values, which differ between file formats);
 * an item by its option count, its key and the multiset of its cells' hashes;
 * an LLM by the multiset of its cells' hashes (each mixed with the item's). Within each
 * item the observed cells are dealt to the folds in turn, the LLMs in the
 * order of their accuracy, from an offset drawn from the seed and the item's
 * hash: every item is split as evenly as its cells allow, each fold holds out
 * strong and weak LLMs alike, and another seed deals other folds.
 */
import type { Dataset } from '../data/types';
import { accuracyByLlm } from '../model/cells';

/** Folds of the cross-validation that chooses the prior strength: every training cell held out once. */
export const CV_FOLDS = 5;

/** Marks a cell that is not observed (in no fold). */
export const NO_FOLD = 255;

/** One round of 32-bit mixing: h absorbs v (murmur3's body and finaliser). */
export function mix(h: number, v: number): number {
  let k = Math.imul(v | 0, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, 0x1b873593);
  h ^= k;
  h = (h << 13) | (h >>> 19);
  h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  return finalise(h);
}

function finalise(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hash of a multiset of 32-bit values: sorted, then mixed in turn. */
function multisetHash(start: number, values: Uint32Array): number {
  values.sort();
  let h = start;
  for (const v of values) h = mix(h, v);
  return h;
}

/** Content hashes of every cell, item and LLM (see the file comment). */
export interface ContentHashes {
  /** Per cell j·I + i (0 where unobserved). */
  cell: Uint32Array;
  item: Uint32Array;
  llm: Uint32Array;
}

/**
 * The hash of one observed cell: its option count and the order of its
 * options by probability (ties by position). The order, not the values: the
 * same cells read from probabilities or log-probabilities differ in the last
 * bits of a fifth of their float32 values (up to 1.1e-6 relative), and any
 * rounding of the values would split some of them at a rounding boundary.
 */
function cellHash(obs: Float32Array, off: number, K: number, order: number[]): number {
  order.length = K;
  // Insertion sort (K ≤ a few dozen): by probability, descending, ties by position.
  for (let k = 0; k < K; k++) {
    let m = k;
    while (m > 0 && obs[off + order[m - 1]] < obs[off + k]) {
      order[m] = order[m - 1];
      m--;
    }
    order[m] = k;
  }
  let h = mix(0x9747b28c, K);
  for (const k of order) h = mix(h, k);
  return h;
}

/** Each data set's hashes, once: the fit's canonical copy and the search's share both read them. */
const hashed = new WeakMap<Dataset, ContentHashes>();

/** The content hashes of a data set's cells, items and LLMs (a data set is never changed in place). */
export function contentHashes(ds: Dataset): ContentHashes {
  let h = hashed.get(ds);
  if (!h) hashed.set(ds, (h = hashContent(ds)));
  return h;
}

function hashContent(ds: Dataset): ContentHashes {
  const { J, I, Kmax } = ds;
  const cell = new Uint32Array(J * I);
  const order: number[] = [];
  for (let c = 0; c < J * I; c++)
    if (ds.observed[c]) cell[c] = cellHash(ds.obs, c * Kmax, ds.nOptions[c % I], order);
  // One buffer for every item's (then LLM's) values; multisetHash sorts a view of it.
  const own = new Uint32Array(Math.max(I, J));
  const item = new Uint32Array(I);
  for (let i = 0; i < I; i++) {
    let n = 0;
    for (let j = 0; j < J; j++) if (ds.observed[j * I + i]) own[n++] = cell[j * I + i];
    item[i] = multisetHash(mix(mix(0x2545f491, ds.nOptions[i]), ds.key[i]), own.subarray(0, n));
  }
  const llm = new Uint32Array(J);
  for (let j = 0; j < J; j++) {
    let n = 0;
    for (let i = 0; i < I; i++)
      if (ds.observed[j * I + i]) own[n++] = mix(item[i], cell[j * I + i]);
    llm[j] = multisetHash(0x61c88647, own.subarray(0, n));
  }
  return { cell, item, llm };
}

/**
 * The fold (0 … K − 1) of every observed cell j·I + i, NO_FOLD elsewhere:
 * within each item the observed cells are dealt in turn, LLMs in the order of
 * their accuracy (ties broken by content hash), from an offset drawn from the
 * seed and the item's hash. Each fold then holds out, of every item, LLMs from
 * the whole range of ability: on the economics demo the chosen λ varied
 * 1.93–2.22 over five seeds, against 1.93–2.65 with cells ranked by a hash
 * of their values (docs/priors.md).
 */
export function cellFolds(ds: Dataset, K: number, seed: number, h = contentHashes(ds)): Uint8Array {
  const { J, I } = ds;
  const fold = new Uint8Array(J * I).fill(NO_FOLD);
  const s = mix(0x3c6ef372, seed);
  const rank = accuracyRank(ds, h);
  const order: number[] = [];
  for (let i = 0; i < I; i++) {
    order.length = 0;
    const hi = mix(s, h.item[i]);
    for (let j = 0; j < J; j++) {
      const c = j * I + i;
      if (!ds.observed[c]) continue;
      order.push(j);
    }
    order.sort((a, b) => rank[a] - rank[b]);
    const offset = mix(hi, 0x5bd1e995) % K;
    order.forEach((j, r) => (fold[j * I + i] = (r + offset) % K));
  }
  return fold;
}

/**
 * Each LLM's rank by its share of items answered right (`accuracyByLlm`: argmax =
 * key), an LLM observed on no item at 0, ties by content hash.
 */
function accuracyRank(ds: Dataset, h: ContentHashes): Float64Array {
  const acc = accuracyByLlm(ds).map((a) => (Number.isNaN(a) ? 0 : a));
  const order = Array.from(acc.keys()).sort((a, b) => acc[a] - acc[b] || h.llm[a] - h.llm[b]);
  const rank = new Float64Array(ds.J);
  order.forEach((j, r) => (rank[j] = r));
  return rank;
}

/**
 * A seeded share of about `share` of the items, chosen by the items' content
 * hashes: the same items under any names, in any order. Sorted indices.
 */
export function contentShare(
  ds: Dataset,
  share: number,
  seed: number,
  h = contentHashes(ds),
): number[] {
  const s = mix(0x1b873593, seed);
  const keep: number[] = [];
  for (let i = 0; i < ds.I; i++) if (mix(s, h.item[i]) / 2 ** 32 < share) keep.push(i);
  return keep;
}
