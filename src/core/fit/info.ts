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

/**
 * The θ range over which a distractor counts as informative: from the lowest
 * to the highest fitted θ of the fit's LLMs (evidence inside the data, no curve
 * extrapolated), or the bank scale's [−4, 4] when the fit holds no LLM.
 */
export function distractorRange(fit: Pick<FitJson, 'llms'>): [number, number] {
  if (fit.llms.length === 0) return [-4, 4];
  let lo = Infinity;
  let hi = -Infinity;
  for (const l of fit.llms) {
    lo = Math.min(lo, l.theta);
    hi = Math.max(hi, l.theta);
  }
  return [lo, hi];
}

/**
 * The one definition of an informative distractor (issue 31), used by the
 * items table, the Distractors tab, Fig. 2b, the report, `llm-nrm info` and the
 * "no informative distractor" flag: a wrong option that is the single most
 * likely response somewhere in `range` (`distractorRange` of the fit).
 */
export function informativeOptions(it: ItemResult, range: [number, number]): number[] {
  return informativeDistractors(nominalItemOf(it), range[0], range[1]);
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
  /** Informative distractors (`informativeOptions`: over the fitted LLMs' θ range); NaN for binary models. */
  informativeDistractors: number;
}

/** What the full option response adds over binary scoring, in percent (NaN when I_binary ≤ 0). */
export function infoGainPct(infoBinary: number, infoWrong: number): number {
  return infoBinary > 0 ? (100 * infoWrong) / infoBinary : NaN;
}

/**
 * Mean I_binary and I_wrong of every item over the fitted LLMs' θ (the fitted
 * θ distribution), and its informative-distractor count (`informativeOptions`). Binary models have
 * I_wrong 0 and no distractor count.
 */
export function itemInfoRows(fit: FitJson): ItemInfoRow[] {
  const thetas = fit.llms.map((l) => l.theta);
  const binary = isBinary(fit.model);
  const range = distractorRange(fit);
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
      informative = informativeOptions(it, range).length;
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
