/**
 * Item information of a fit, the one place it is computed: the Information
 * tab, Fig. 2a/2b in Evaluate, `llm-nrm info` and the charts all read these rows.
 */
import { OPTION_LABELS } from '../data/types';
import {
  binaryInfoAt,
  informativeDistractors,
  meanInfo,
  type BinaryItem,
  type NominalItem,
} from '../model/itemfns';
import { isBinary } from '../model/types';
import type { FitJson, ItemResult } from './types';

/** The nominal component of a fitted item, for the item functions. */
export function nominalItemOf(it: ItemResult): NominalItem {
  return {
    a: it.a ?? [],
    c: it.c ?? [],
    key: OPTION_LABELS.indexOf(it.key as (typeof OPTION_LABELS)[number]),
  };
}

export function binaryItemOf(it: ItemResult): BinaryItem {
  return { slope: it.slope ?? 1, d: it.d ?? 0, g: it.g ?? 0, u: it.u ?? 1 };
}

/** One row of `llm-nrm info`: an item's mean information over the fitted θ. */
export interface ItemInfoRow {
  item: string;
  benchmark: string;
  key: string;
  nOptions: number;
  infoBinary: number;
  infoWrong: number;
  /** (I_binary + I_wrong) / I_binary − 1, as a percentage. */
  gainPct: number;
  /** Wrong options that are the most likely response somewhere in θ ∈ [−4, 4]; NaN for binary models. */
  informativeDistractors: number;
}

/** What the full option response adds over binary scoring, in percent (NaN when I_binary ≤ 0). */
export function infoGainPct(infoBinary: number, infoWrong: number): number {
  return infoBinary > 0 ? (100 * infoWrong) / infoBinary : NaN;
}

/**
 * Mean I_binary and I_wrong of every item over the fitted LLMs' θ (the fitted
 * θ distribution), and its informative-distractor count. Binary models have
 * I_wrong 0 and no distractor count.
 */
export function itemInfoRows(fit: FitJson): ItemInfoRow[] {
  const thetas = fit.llms.map((l) => l.theta);
  const binary = isBinary(fit.model);
  return fit.items.map((it) => {
    let infoBinary: number;
    let infoWrong = 0;
    let informative = NaN;
    if (binary) {
      const bi = binaryItemOf(it);
      infoBinary = thetas.reduce((s, t) => s + binaryInfoAt(bi, t), 0) / (thetas.length || 1);
    } else {
      const ni = nominalItemOf(it);
      const m = meanInfo(ni, thetas);
      infoBinary = m.binary;
      infoWrong = m.wrong;
      informative = informativeDistractors(ni).length;
    }
    return {
      item: it.id,
      benchmark: it.benchmark,
      key: it.key,
      nOptions: it.nOptions,
      infoBinary,
      infoWrong,
      gainPct: infoGainPct(infoBinary, infoWrong),
      informativeDistractors: informative,
    };
  });
}
