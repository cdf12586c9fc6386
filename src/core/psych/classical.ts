/**
 * Classical item analysis, before any fit (ShinyItemAnalysis' tables): per
 * item the proportion correct (observed argmax = key), the mean probability on
 * the key, the item–rest correlation and the upper–lower index; per option
 * the share of LLMs choosing it (argmax) and its mean probability; and the
 * distractor plot (DDplot) data: the share of each option within score groups.
 *
 * Scores are shares correct over each LLM's observed items (equal to the
 * number correct / I on complete data), so missing cells do not bias them.
 */
import type { Dataset } from '../data/types';
import { OPTION_LABELS } from '../data/types';
import { argmaxAt } from '../model/cells';
import { pearson } from '../stats/corr';
import { correctnessMatrix, scoreShares } from './correctness';

export interface ClassicalItemRow {
  item: string;
  benchmark: string;
  key: string;
  n: number;
  /** Share of observed LLMs whose argmax is the key. */
  pCorrect: number;
  /** Mean probability on the key. */
  meanKeyProb: number;
  /** Pearson r of correctness with the rest score (share correct on the other items). */
  itemRest: number;
  /** pCorrect in the upper third of scores minus in the lower third. */
  ULI: number;
}

export const CLASSICAL_COLUMNS = [
  'item',
  'benchmark',
  'key',
  'n',
  'pCorrect',
  'meanKeyProb',
  'itemRest',
  'ULI',
] as const;

export interface OptionShareRow {
  item: string;
  option: string;
  isKey: boolean;
  /** Share of observed LLMs whose argmax is this option. */
  share: number;
  meanProb: number;
}

export const OPTION_SHARE_COLUMNS = ['item', 'option', 'isKey', 'share', 'meanProb'] as const;

export interface DdRow {
  item: string;
  /** Score group, 1 = lowest. */
  group: number;
  option: string;
  isKey: boolean;
  /** Share of the group's observed LLMs whose argmax is this option. */
  share: number;
  n: number;
}

export const DD_COLUMNS = ['item', 'group', 'option', 'isKey', 'share', 'n'] as const;

/** Score group (0-based) of each LLM: G groups of (nearly) equal size by score, ties kept together by rank order. */
export function scoreGroups(score: Float64Array, G: number): Int16Array {
  const idx = Array.from(score, (_, j) => j).filter((j) => Number.isFinite(score[j]));
  idx.sort((x, y) => score[x] - score[y] || x - y);
  const out = new Int16Array(score.length).fill(-1);
  idx.forEach((j, r) => (out[j] = Math.min(G - 1, Math.floor((r * G) / idx.length))));
  return out;
}

export interface ClassicalResult {
  items: ClassicalItemRow[];
  options: OptionShareRow[];
  dd: DdRow[];
  groups: number;
}

/** Classical analysis of ds with `groups` score groups for the DDplot (default 3). */
export function classicalAnalysis(ds: Dataset, groups = 3): ClassicalResult {
  const { J, I, Kmax } = ds;
  const y = correctnessMatrix(ds);
  const score = scoreShares(y, J, I);
  const G = Math.max(1, Math.min(groups, J));
  const grp = scoreGroups(score, G);
  const total = new Float64Array(J);
  const count = new Float64Array(J);
  for (let j = 0; j < J; j++)
    for (let i = 0; i < I; i++) {
      const v = y[j * I + i];
      if (Number.isNaN(v)) continue;
      total[j] += v;
      count[j]++;
    }
  const items: ClassicalItemRow[] = [];
  const options: OptionShareRow[] = [];
  const dd: DdRow[] = [];
  for (let i = 0; i < I; i++) {
    const K = ds.nOptions[i];
    const pick = new Float64Array(K);
    const mass = new Float64Array(K);
    const gPick = new Float64Array(G * K);
    const gN = new Float64Array(G);
    const yi: number[] = [];
    const rest: number[] = [];
    let n = 0;
    for (let j = 0; j < J; j++) {
      if (!ds.observed[j * I + i]) continue;
      const off = (j * I + i) * Kmax;
      const top = argmaxAt(ds.obs, off, K);
      n++;
      pick[top]++;
      for (let k = 0; k < K; k++) mass[k] += ds.obs[off + k];
      gPick[grp[j] * K + top]++;
      gN[grp[j]]++;
      // Rest score: this LLM's share correct on its other observed items.
      const m = count[j] - 1;
      const s = total[j] - y[j * I + i];
      if (m > 0) {
        yi.push(y[j * I + i]);
        rest.push(s / m);
      }
    }
    const key = ds.key[i];
    const label = (k: number) => OPTION_LABELS[k];
    items.push({
      item: ds.itemIds[i],
      benchmark: ds.benchmarks[i],
      key: label(key),
      n,
      pCorrect: n ? pick[key] / n : NaN,
      meanKeyProb: n ? mass[key] / n : NaN,
      itemRest: yi.length > 2 ? pearson(yi, rest) : NaN,
      ULI:
        gN[G - 1] && gN[0] && G > 1
          ? gPick[(G - 1) * K + key] / gN[G - 1] - gPick[key] / gN[0]
          : NaN,
    });
    for (let k = 0; k < K; k++) {
      options.push({
        item: ds.itemIds[i],
        option: label(k),
        isKey: k === key,
        share: n ? pick[k] / n : NaN,
        meanProb: n ? mass[k] / n : NaN,
      });
      for (let g = 0; g < G; g++)
        dd.push({
          item: ds.itemIds[i],
          group: g + 1,
          option: label(k),
          isKey: k === key,
          share: gN[g] ? gPick[g * K + k] / gN[g] : NaN,
          n: gN[g],
        });
    }
  }
  return { items, options, dd, groups: G };
}
