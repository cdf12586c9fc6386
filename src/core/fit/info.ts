import { OPTION_LABELS } from '../data/types';
import {
  binaryInfoAt,
  informativeDistractors,
  meanInfo,
  type BinaryItem,
  type NominalItem,
} from '../model/itemfns';
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

/**
 * Mean I_binary and I_wrong of every item over the fitted LLMs' θ (the fitted
 * θ distribution), and its informative-distractor count.
 */
export function itemInfoRows(fit: FitJson): ItemInfoRow[] {
  const thetas = fit.llms.map((l) => l.theta);
  const binary = fit.items.length > 0 && fit.items[0].a === undefined;
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
      gainPct: infoBinary > 0 ? (100 * infoWrong) / infoBinary : NaN,
      informativeDistractors: informative,
    };
  });
}
