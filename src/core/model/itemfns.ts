/**
 * Item functions of the nominal component (mirt's vocabulary: probtrace,
 * iteminfo, testinfo) computed from one item's centred (a, c). These read plain
 * arrays, so they work on a fit.json as well as inside the fitting code.
 */
import { margin as marginOf } from './gate';

/** An item as the item functions need it. */
export interface NominalItem {
  a: ArrayLike<number>;
  c: ArrayLike<number>;
  /** 0-based key index. */
  key: number;
}

/** Binary item: P = g + (u − g) σ(slope·θ + d). */
export interface BinaryItem {
  slope: number;
  d: number;
  g: number;
  u: number;
}

/** Evenly spaced grid from lo to hi with n points. */
export function thetaGrid(lo = -4, hi = 4, n = 161): Float64Array {
  const out = new Float64Array(n);
  for (let q = 0; q < n; q++) out[q] = lo + ((hi - lo) * q) / (n - 1);
  return out;
}

/** NRM option probabilities at θ into out[0..K). */
export function probsAt(item: NominalItem, theta: number, out: Float64Array): void {
  const K = item.a.length;
  let m = -Infinity;
  for (let k = 0; k < K; k++) {
    out[k] = item.a[k] * theta + item.c[k];
    if (out[k] > m) m = out[k];
  }
  let s = 0;
  for (let k = 0; k < K; k++) {
    out[k] = Math.exp(out[k] - m);
    s += out[k];
  }
  for (let k = 0; k < K; k++) out[k] /= s;
}

/** Option probability traces over `grid`: row q holds p(θ_q) over K options. */
export function probtrace(item: NominalItem, grid: ArrayLike<number>): Float64Array[] {
  const K = item.a.length;
  return Array.from(grid, (t) => {
    const p = new Float64Array(K);
    probsAt(item, t, p);
    return p;
  });
}

/** Correct-vs-incorrect log-odds margin f_i(θ) (eq. 8; gate.ts `margin`). */
export function margin(item: NominalItem, theta: number): number {
  const K = item.a.length;
  return marginOf(item.a, item.c, 0, K, item.key, theta, new Float64Array(K));
}

export interface ItemInfo {
  /** Fisher information of the full option response, Σ p_k (a_k − ā)². */
  total: number;
  /** Information kept by correctness alone, P'(θ)² / (P(1 − P)). */
  binary: number;
  /** What distractor identity adds: total − binary ≥ 0. */
  wrong: number;
}

/**
 * Fisher information of the nominal component at θ, split (eq. 16) into the
 * part binary correctness keeps and the part only the wrong option's identity
 * carries. total − binary ≥ 0 because correctness is a function of the option
 * (information can only be lost by coarsening); round-off below 0 is clamped.
 */
export function iteminfoAt(item: NominalItem, theta: number, scratch?: Float64Array): ItemInfo {
  const K = item.a.length;
  const p = scratch ?? new Float64Array(K);
  probsAt(item, theta, p);
  let abar = 0;
  for (let k = 0; k < K; k++) abar += p[k] * item.a[k];
  let total = 0;
  for (let k = 0; k < K; k++) total += p[k] * (item.a[k] - abar) ** 2;
  const P = p[item.key];
  const dP = P * (item.a[item.key] - abar);
  const binary = P > 0 && P < 1 ? (dP * dP) / (P * (1 - P)) : 0;
  return { total, binary, wrong: Math.max(0, total - binary) };
}

/** Fisher information of a binary item at θ. */
export function binaryInfoAt(item: BinaryItem, theta: number): number {
  const sig = 1 / (1 + Math.exp(-(item.slope * theta + item.d)));
  const P = item.g + (item.u - item.g) * sig;
  const dP = (item.u - item.g) * item.slope * sig * (1 - sig);
  return P > 0 && P < 1 ? (dP * dP) / (P * (1 - P)) : 0;
}

/** Binary P(correct) at θ. */
export function binaryProbAt(item: BinaryItem, theta: number): number {
  return item.g + (item.u - item.g) / (1 + Math.exp(-(item.slope * theta + item.d)));
}

/** I_binary, I_wrong and total over a grid. */
export function iteminfo(item: NominalItem, grid: ArrayLike<number>): ItemInfo[] {
  const p = new Float64Array(item.a.length);
  return Array.from(grid, (t) => iteminfoAt(item, t, p));
}

/** A θ interval in which one option is the single most likely response. */
export interface Band {
  option: number;
  from: number;
  to: number;
}

/**
 * θ ranges in [lo, hi] in which each option is the most likely response, exact:
 * the most likely option is the argmax of the linear utilities a_k θ + c_k (the
 * softmax keeps their order), so the bands are the pieces of their upper
 * envelope. Breakpoints are the pairwise crossings; O(K³) for K ≤ 10.
 */
export function dominantBandsExact(item: NominalItem, lo: number, hi: number): Band[] {
  const K = item.a.length;
  const cuts = [lo, hi];
  for (let k = 0; k < K; k++)
    for (let m = k + 1; m < K; m++) {
      const da = item.a[k] - item.a[m];
      if (da === 0) continue;
      const t = (item.c[m] - item.c[k]) / da;
      if (t > lo && t < hi) cuts.push(t);
    }
  cuts.sort((x, y) => x - y);
  const top = (t: number) => {
    let best = 0;
    for (let k = 1; k < K; k++)
      if (item.a[k] * t + item.c[k] > item.a[best] * t + item.c[best]) best = k;
    return best;
  };
  const bands: Band[] = [];
  for (let q = 0; q + 1 < cuts.length; q++) {
    if (cuts[q + 1] - cuts[q] < 1e-12) continue;
    const option = top((cuts[q] + cuts[q + 1]) / 2);
    const last = bands[bands.length - 1];
    if (last && last.option === option) last.to = cuts[q + 1];
    else bands.push({ option, from: cuts[q], to: cuts[q + 1] });
  }
  return bands;
}

/** θ ranges within the span of `grid` in which each option is the most likely response. */
export function dominantBands(item: NominalItem, grid: ArrayLike<number>): Band[] {
  return dominantBandsExact(item, grid[0], grid[grid.length - 1]);
}

/**
 * Wrong options that are the single most likely response somewhere in θ ∈
 * [lo, hi] (exactly, from the utilities' envelope). A fit's count of
 * informative distractors reads this over its LLMs' θ range through
 * `fit/info.ts` `informativeOptions`, the one definition.
 */
export function informativeDistractors(item: NominalItem, lo = -4, hi = 4): number[] {
  const set = new Set<number>();
  for (const b of dominantBandsExact(item, lo, hi)) if (b.option !== item.key) set.add(b.option);
  return [...set].sort((x, y) => x - y);
}

/** Mean of I_binary and I_wrong of an item over a set of θ values (e.g. the fitted LLMs). */
export function meanInfo(
  item: NominalItem,
  thetas: ArrayLike<number>,
): { binary: number; wrong: number } {
  let b = 0;
  let w = 0;
  const p = new Float64Array(item.a.length);
  for (let q = 0; q < thetas.length; q++) {
    const inf = iteminfoAt(item, thetas[q], p);
    b += inf.binary;
    w += inf.wrong;
  }
  const n = thetas.length || 1;
  return { binary: b / n, wrong: w / n };
}
