/**
 * The fit's canonical copy of a data set and the maps between free vectors of
 * two posings of the same cells. The prior-strength search and the final fit
 * run on the canonical copy (LLMs and items sorted by their content), so the
 * same cells under any names, in any order or file format take the same
 * arithmetic to the last bit: equal data, equal fit (issue 27).
 */
import { subsetDataset } from '../data/subset';
import type { Dataset } from '../data/types';
import { binaryFreeLayout, nominalFreeLayout } from '../model/params';
import { contentHashes } from './cellFolds';
import type { Posed } from './pose';

/**
 * The search's copy of the data: the items it runs on (`kept`, or all) and
 * every LLM, each sorted by its content hash (cellFolds.ts), so that the same
 * cells under any names and in any order give the search the same arrays and
 * the same result to the last bit. `llms[a]` and `items[b]` are the indices in
 * `ds` of the copy's LLM a and item b. Ties of the hash are broken by the
 * cells' values (`valueKeys`), exact ties by the data's order (identical
 * items or LLMs: the order changes only the rounding).
 */
export function canonicalOrder(
  ds: Dataset,
  kept: number[] | null,
): { data: Dataset; llms: number[]; items: number[] } {
  const sub = kept ? subsetDataset(ds, undefined, kept) : ds;
  const h = contentHashes(sub);
  const v = valueKeys(sub);
  const byHash = (hash: Uint32Array, value: Float64Array) =>
    Array.from(hash.keys()).sort((a, b) => hash[a] - hash[b] || value[a] - value[b] || a - b);
  const js = byHash(h.llm, v.llm);
  const is = byHash(h.item, v.item);
  return {
    data: subsetDataset(sub, js, is),
    llms: js,
    items: is.map((b) => (kept ? kept[b] : b)),
  };
}

/**
 * The tie-break after the content hash, which sees only how each cell orders
 * its options: two-option items with as many LLMs preferring A tie there (a
 * simulated 30 × 200 set had three such pairs, and renaming it moved the fit
 * by 5.7e-5 of its objective). Each item's key is the sum of its cells'
 * position-weighted values Σ_k (k + 1)·p_k, and each LLM's the same over its
 * cells; the terms are summed in sorted order, so the key is the same under
 * any names or order. Readings of one file that differ in the last float32
 * bits (probabilities against log-probabilities) could reorder only items or
 * LLMs whose keys agree to about 1e-6: near-ties, whose order moves the fit
 * only in its rounding.
 */
function valueKeys(ds: Dataset): { item: Float64Array; llm: Float64Array } {
  const { J, I, Kmax } = ds;
  const cell = new Float64Array(J * I);
  for (let c = 0; c < J * I; c++) {
    if (!ds.observed[c]) continue;
    let s = 0;
    for (let k = 0; k < ds.nOptions[c % I]; k++) s += (k + 1) * ds.obs[c * Kmax + k];
    cell[c] = s;
  }
  // The first n values of `own`, summed in ascending order. A typed array's
  // sort is numeric and native (the same order for these finite sums).
  const own = new Float64Array(Math.max(I, J));
  const sorted = (n: number) => {
    const xs = own.subarray(0, n).sort();
    let t = 0;
    for (let q = 0; q < n; q++) t += xs[q];
    return t;
  };
  const item = new Float64Array(I);
  for (let i = 0; i < I; i++) {
    let n = 0;
    for (let j = 0; j < J; j++) if (ds.observed[j * I + i]) own[n++] = cell[j * I + i];
    item[i] = sorted(n);
  }
  const llm = new Float64Array(J);
  for (let j = 0; j < J; j++) {
    let n = 0;
    for (let i = 0; i < I; i++) if (ds.observed[j * I + i]) own[n++] = cell[j * I + i];
    llm[j] = sorted(n);
  }
  return { item, llm };
}

/**
 * A start for the full problem from the search's end point (on its own copy
 * of the data, `canonicalOrder`): the LLM parameters (θ, s, δ, ρ) and the gate
 * (w0, κ) as the search left them, the searched items' parameters too; where
 * the search ran on a share, every other item keeps the documented start
 * (`full.x0`). `items[b]` and `llms[a]` are the full problem's indices of the
 * search's item b and LLM a (LLMs in the same order when omitted).
 */
export function spreadShare(
  x: Float64Array,
  share: Posed,
  items: readonly number[],
  full: Posed,
  llms?: readonly number[],
): Float64Array | null {
  const out = Float64Array.from(full.x0);
  const copy = (from: number, to: number, n: number) => out.set(x.subarray(from, from + n), to);
  const J = full.problem.layout.J;
  const jOf = (a: number) => (llms ? llms[a] : a);
  if (share.problem.kind === 'binary' && full.problem.kind === 'binary') {
    // The search runs in the default mode only.
    const S = binaryFreeLayout(share.problem.layout, share.problem.model, 'default');
    const F = binaryFreeLayout(full.problem.layout, full.problem.model, 'default');
    for (let a = 0; a < J; a++) out[F.theta + jOf(a)] = x[S.theta + a];
    if (F.nA === 1) out[F.a] = x[S.a];
    items.forEach((i, b) => {
      if (F.nA > 1) out[F.a + i] = x[S.a + b];
      out[F.d + i] = x[S.d + b];
      if (F.uBar > F.gBar) out[F.gBar + i] = x[S.gBar + b];
      if (F.size > F.uBar) out[F.uBar + i] = x[S.uBar + b];
    });
    return out;
  }
  if (share.problem.kind !== 'nominal' || full.problem.kind !== 'nominal') return null;
  const S = nominalFreeLayout(share.problem.layout, share.problem.flags);
  const F = nominalFreeLayout(full.problem.layout, full.problem.flags);
  const ks = share.problem.layout.Kmax;
  const kf = full.problem.layout.Kmax;
  const k = Math.min(ks, kf);
  for (let a = 0; a < J; a++) {
    const j = jOf(a);
    out[F.theta + j] = x[S.theta + a];
    if (F.delta > F.sBar) out[F.sBar + j] = x[S.sBar + a];
    if (F.rho > F.delta) copy(S.delta + a * ks, F.delta + j * kf, k);
    if (F.a > F.rho) copy(S.rho + a * ks, F.rho + j * kf, k);
  }
  items.forEach((i, b) => {
    const K = full.problem.cells.nOptions[i];
    copy(S.a + b * ks, F.a + i * kf, K);
    copy(S.c + b * ks, F.c + i * kf, K);
  });
  for (let q = F.w0; q < F.size; q++) out[q] = x[S.w0 + (q - F.w0)];
  return out;
}

/** A whole data set's canonical posing and the maps of free vectors to and from it. */
export interface CanonicalPosing {
  posed: Posed;
  /** A free vector of the caller's posing, in the canonical order. */
  toCanonical(x: Float64Array): Float64Array;
  /** A canonical free vector, in the caller's order. */
  fromCanonical(x: Float64Array): Float64Array;
}

/**
 * Pose `ds` in its canonical order (`canonicalOrder`) with the same settings
 * as `posed`, its posing in the data's own order.
 */
export function canonicalPosing(
  ds: Dataset,
  posed: Posed,
  poseIt: (data: Dataset) => Posed,
): CanonicalPosing {
  const { data, llms, items } = canonicalOrder(ds, null);
  const canon = poseIt(data);
  const invL = inverse(llms);
  const invI = inverse(items);
  const must = (x: Float64Array | null) => {
    if (!x) throw new Error('internal: no map between the two posings of one data set');
    return x;
  };
  return {
    posed: canon,
    toCanonical: (x) => must(spreadShare(x, posed, invI, canon, invL)),
    fromCanonical: (x) => must(spreadShare(x, canon, items, posed, llms)),
  };
}

function inverse(p: readonly number[]): number[] {
  const out = new Array<number>(p.length);
  p.forEach((v, i) => (out[v] = i));
  return out;
}
