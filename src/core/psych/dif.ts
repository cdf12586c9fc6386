/**
 * Differential item functioning between groups of LLMs: the Mantel–Haenszel
 * test on binary correctness (observed argmax = key), matched on score.
 *
 * Matching: LLMs are stratified by their number correct (on complete data;
 * with missing cells, by share correct × items rounded), the studied item
 * included (thin matching). With fewer than THIN_MATCHING_MIN LLMs, thin
 * strata hold one LLM each and carry no information, so the scores are
 * pooled into ⌊J/6⌋ bands of equal count (ties kept together; thick
 * matching). One purification step (Holland & Thayer, 1988): items
 * flagged in a first pass leave the matching score of the others, so that a
 * few DIF items do not bias the matching against the rest. Per stratum: A, B (reference right, wrong), C, D (focal right,
 * wrong). α_MH = Σ(AD/N) / Σ(BC/N), Δ_MH = −2.35 ln α_MH (ETS delta scale;
 * negative: the item is harder for the focal group at equal score), its SE
 * by Robins–Breslow–Greenland, and χ²_MH with continuity correction, 1 df.
 *
 * ETS classes (Zwick, 2012): C when |Δ| ≥ 1.5 and |Δ| is significantly above 1
 * (|Δ| − 1 > 1.645 SE); A when χ²_MH is not significant at 0.05 or |Δ| < 1;
 * B otherwise. Flagged: class B or C. Strata in which a group is absent carry
 * no information and drop out; an item right (or wrong) for every LLM has no
 * estimate (NaN, class '').
 */
import type { Dataset } from '../data/types';
import { correctnessMatrix } from './correctness';
import { chi2Sf } from './stats';

export type EtsClass = 'A' | 'B' | 'C' | '';

/** What every DIF row starts with: the item and the two groups compared on it. */
export interface DifPair {
  item: string;
  benchmark: string;
  reference: string;
  focal: string;
  nRef: number;
  nFocal: number;
}

export const DIF_PAIR_COLUMNS = [
  'item',
  'benchmark',
  'reference',
  'focal',
  'nRef',
  'nFocal',
] as const;

export interface MhRow extends DifPair {
  /** Mantel–Haenszel common odds ratio (reference vs focal). */
  alphaMH: number;
  deltaMH: number;
  deltaSE: number;
  /** 95% interval of Δ_MH. */
  deltaLo: number;
  deltaHi: number;
  chi2: number;
  p: number;
  ets: EtsClass;
  flag: boolean;
}

/** Thin matching (one stratum per score) from this many LLMs; bands of ~6 LLMs below. */
export const THIN_MATCHING_MIN = 200;

/** Equal-count bands of the scores (−1 stays −1), ties in one band. */
function bands(score: Int32Array, B: number): Int32Array {
  const idx = Array.from(score, (_, j) => j).filter((j) => score[j] >= 0);
  idx.sort((a, b) => score[a] - score[b]);
  const out = new Int32Array(score.length).fill(-1);
  let band = 0;
  idx.forEach((j, r) => {
    const prev = r > 0 ? idx[r - 1] : -1;
    if (prev >= 0 && score[j] !== score[prev]) band = Math.floor((r * B) / idx.length);
    out[j] = band;
  });
  return out;
}

/** Per LLM, number correct and number observed over the anchor items. */
function anchorSums(y: Float64Array, J: number, I: number, anchor: boolean[]) {
  const sum = new Float64Array(J);
  const seen = new Float64Array(J);
  for (let j = 0; j < J; j++)
    for (let i = 0; i < I; i++) {
      const v = y[j * I + i];
      if (!anchor[i] || Number.isNaN(v)) continue;
      sum[j] += v;
      seen[j]++;
    }
  return { sum, seen, size: anchor.filter(Boolean).length };
}

/**
 * Matching stratum of LLM j for item i: number correct over the anchor items
 * plus item i (share × items rounded when some are missing); −1 without data.
 */
function stratumOf(
  a: ReturnType<typeof anchorSums>,
  y: Float64Array,
  I: number,
  anchor: boolean[],
  j: number,
  i: number,
): number {
  const v = y[j * I + i];
  const extra = !anchor[i] && !Number.isNaN(v);
  const s = a.sum[j] + (extra ? v : 0);
  const n = a.seen[j] + (extra ? 1 : 0);
  const size = a.size + (anchor[i] ? 0 : 1);
  return n === 0 ? -1 : n === size ? s : Math.round((s / n) * size);
}

/** ETS A/B/C from Δ_MH, its SE and the χ² p-value. */
export function etsClass(delta: number, se: number, p: number): EtsClass {
  if (!Number.isFinite(delta)) return '';
  const ad = Math.abs(delta);
  if (p >= 0.05 || ad < 1) return 'A';
  if (ad >= 1.5 && ad - 1 > 1.645 * se) return 'C';
  return 'B';
}

/**
 * MH DIF of every item for each focal group against `reference` (default: the
 * first group). `group[j]` is LLM j's group ('' = not in any, left out).
 */
export function mantelHaenszel(
  ds: Dataset,
  group: string[],
  names: string[],
  reference = names[0],
  purify = true,
): MhRow[] {
  const y = correctnessMatrix(ds);
  const first = mhPass(ds, y, group, names, reference, new Array<boolean>(ds.I).fill(true));
  if (!purify) return first;
  const anchor = new Array<boolean>(ds.I).fill(true);
  for (const r of first) if (r.flag) anchor[ds.itemIds.indexOf(r.item)] = false;
  if (anchor.every(Boolean) || !anchor.some(Boolean)) return first;
  return mhPass(ds, y, group, names, reference, anchor);
}

function mhPass(
  ds: Dataset,
  y: Float64Array,
  group: string[],
  names: string[],
  reference: string,
  anchor: boolean[],
): MhRow[] {
  const { J, I } = ds;
  const nStrata = I + 2;
  const sums = anchorSums(y, J, I, anchor);
  const rows: MhRow[] = [];
  for (const focal of names.filter((g) => g !== reference)) {
    const side = group.map((g) => (g === reference ? 0 : g === focal ? 1 : -1));
    const nRef = side.filter((s) => s === 0).length;
    const nFocal = side.filter((s) => s === 1).length;
    const cnt = new Float64Array(nStrata * 4);
    for (let i = 0; i < I; i++) {
      cnt.fill(0);
      let strata: Int32Array = Int32Array.from({ length: J }, (_, j) =>
        stratumOf(sums, y, I, anchor, j, i),
      );
      if (J < THIN_MATCHING_MIN) strata = bands(strata, Math.max(1, Math.floor(J / 6)));
      for (let j = 0; j < J; j++) {
        const v = y[j * I + i];
        const st = strata[j];
        if (side[j] < 0 || st < 0 || Number.isNaN(v)) continue;
        cnt[st * 4 + side[j] * 2 + (v ? 0 : 1)]++;
      }
      const { ok, alphaMH, deltaMH, deltaSE, chi2 } = mhStatistics(cnt, nStrata);
      const p = Number.isFinite(chi2) ? chi2Sf(chi2, 1) : NaN;
      const ets = etsClass(deltaMH, deltaSE, p);
      rows.push({
        item: ds.itemIds[i],
        benchmark: ds.benchmarks[i],
        reference,
        focal,
        nRef,
        nFocal,
        alphaMH: ok ? alphaMH : NaN,
        deltaMH,
        deltaSE,
        deltaLo: deltaMH - 1.96 * deltaSE,
        deltaHi: deltaMH + 1.96 * deltaSE,
        chi2,
        p,
        ets,
        flag: ets === 'B' || ets === 'C',
      });
    }
  }
  return rows;
}

/** Sums over the strata of their 2 × 2 tables [A B; C D] (reference right, wrong; focal right, wrong). */
function stratumSums(cnt: Float64Array, nStrata: number) {
  const t = { R: 0, S: 0, A: 0, E: 0, V: 0, v1: 0, v2: 0, v3: 0 };
  for (let k = 0; k < nStrata; k++) {
    const [A, B, C, D] = cnt.subarray(k * 4, k * 4 + 4);
    const N = A + B + C + D;
    const nR = A + B;
    const nF = C + D;
    if (nR === 0 || nF === 0) continue;
    const R = (A * D) / N;
    const S = (B * C) / N;
    const P = (A + D) / N;
    const Q = (B + C) / N;
    t.R += R;
    t.S += S;
    t.v1 += P * R;
    t.v2 += P * S + Q * R;
    t.v3 += Q * S;
    if (N > 1) {
      const m1 = A + C;
      const m0 = B + D;
      t.A += A;
      t.E += (nR * m1) / N;
      t.V += (nR * nF * m1 * m0) / (N * N * (N - 1));
    }
  }
  return t;
}

/**
 * α_MH, Δ_MH = −2.35 ln α_MH with its SE (the Robins–Breslow–Greenland
 * variance of ln α_MH) and the continuity-corrected MH χ² (NaN where undefined).
 */
function mhStatistics(cnt: Float64Array, nStrata: number) {
  const t = stratumSums(cnt, nStrata);
  const alphaMH = t.R / t.S;
  const varLn = t.v1 / (2 * t.R * t.R) + t.v2 / (2 * t.R * t.S) + t.v3 / (2 * t.S * t.S);
  const ok = t.R > 0 && t.S > 0;
  const deltaMH = ok ? -2.35 * Math.log(alphaMH) : NaN;
  const deltaSE = ok ? 2.35 * Math.sqrt(varLn) : NaN;
  const chi2 = t.V > 0 ? Math.max(0, Math.abs(t.A - t.E) - 0.5) ** 2 / t.V : NaN;
  return { ok, alphaMH, deltaMH, deltaSE, chi2 };
}
