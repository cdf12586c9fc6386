/**
 * Item and person (LLM) fit: infit and outfit mean squares of the fitted
 * model's residuals (residuals.ts says how soft targets enter), with their
 * Wilson–Hilferty standardised z.
 *
 * outfit = mean over cells of sq/W (unweighted; sensitive to surprising
 * responses far from an item's difficulty); infit = Σ sq / Σ W (information
 * weighted). Model SDs of the mean squares: q²_out = Σ(Var/W²)/n²,
 * q²_in = ΣVar/(ΣW)². Both have expectation 1 when the model holds. The z is
 * left undefined (NaN, shown as "—") where q > 1: see WH_MAX_Q.
 */
import type { Dataset } from '../data/types';
import type { FitJson } from '../fit/types';
import { cellResiduals, type CellResiduals } from './residuals';
import { wilsonHilferty } from './stats';

/**
 * Misfit flags on the mean squares (Wright & Linacre's range for
 * multiple-choice tests): 'underfit' when infit or outfit exceeds 1.3 (the
 * responses are noisier than the model predicts: e.g. not driven by θ),
 * 'overfit' when both are below 0.7 (more deterministic than predicted). The
 * z values are reported beside them but not used for flags: with few LLMs
 * they are weak, with many they flag trivial departures.
 */
export const FIT_THRESHOLDS = { underfit: 1.3, overfit: 0.7 } as const;

export type FitFlag = 'underfit' | 'overfit' | '';

/** Infit/outfit of one item or one LLM. */
export interface FitStats {
  infit: number;
  outfit: number;
  /** Wilson–Hilferty z of infit; NaN where its model SD q exceeds WH_MAX_Q (stats.ts). */
  z_infit: number;
  /** Wilson–Hilferty z of outfit; NaN where its model SD q exceeds WH_MAX_Q (stats.ts). */
  z_outfit: number;
  /** Observed cells. */
  n: number;
  flag: FitFlag;
}

export interface ItemFitRow extends FitStats {
  item: string;
  benchmark: string;
}

export interface PersonFitRow extends FitStats {
  llm: string;
}

/** The FitStats columns, after an item's or an LLM's name. */
const STAT_COLUMNS = ['infit', 'outfit', 'z_infit', 'z_outfit', 'n', 'flag'] as const;
export const ITEM_FIT_COLUMNS = ['item', 'benchmark', ...STAT_COLUMNS] as const;
export const PERSON_FIT_COLUMNS = ['llm', ...STAT_COLUMNS] as const;

export function fitFlag(infit: number, outfit: number): FitFlag {
  if (infit > FIT_THRESHOLDS.underfit || outfit > FIT_THRESHOLDS.underfit) return 'underfit';
  if (infit < FIT_THRESHOLDS.overfit && outfit < FIT_THRESHOLDS.overfit) return 'overfit';
  return '';
}

/**
 * Mean squares of the cells whose group (item or LLM index) is g, for every
 * g < nGroups. The model SDs are eRm's (itemfit.ppar): q²_out = Σ(C/W²)/n² −
 * 1/n with C the fourth central moment, which is Σ(Var/W²)/n² since Var = C −
 * W²; q²_in = Σ(C − W²)/(ΣW)².
 */
export function aggregate(r: CellResiduals, group: Uint32Array, nGroups: number): FitStats[] {
  const n = new Float64Array(nGroups);
  const sumRatio = new Float64Array(nGroups);
  const sumVarW2 = new Float64Array(nGroups);
  const sumSq = new Float64Array(nGroups);
  const sumW = new Float64Array(nGroups);
  const sumVar = new Float64Array(nGroups);
  for (let q = 0; q < r.n; q++) {
    const g = group[q];
    const w = r.expected[q];
    n[g]++;
    sumRatio[g] += r.sq[q] / w;
    sumVarW2[g] += r.variance[q] / (w * w);
    sumSq[g] += r.sq[q];
    sumW[g] += w;
    sumVar[g] += r.variance[q];
  }
  return Array.from({ length: nGroups }, (_, g) => {
    const outfit = n[g] ? sumRatio[g] / n[g] : NaN;
    const infit = n[g] ? sumSq[g] / sumW[g] : NaN;
    const qOut = Math.sqrt(sumVarW2[g]) / n[g];
    const qIn = Math.sqrt(sumVar[g]) / sumW[g];
    return {
      infit,
      outfit,
      z_infit: wilsonHilferty(infit, qIn),
      z_outfit: wilsonHilferty(outfit, qOut),
      n: n[g],
      flag: n[g] ? fitFlag(infit, outfit) : '',
    };
  });
}

/** Item and LLM fit of `fit` on `ds`. */
export function modelFit(
  fit: FitJson,
  ds: Dataset,
): { kind: 'option' | 'binary'; items: ItemFitRow[]; llms: PersonFitRow[] } {
  const r = cellResiduals(fit, ds);
  const items = aggregate(r, r.cellI, ds.I).map((s, i) => ({
    item: ds.itemIds[i],
    benchmark: ds.benchmarks[i],
    ...s,
  }));
  const llms = aggregate(r, r.cellJ, ds.J).map((s, j) => ({ llm: ds.llmIds[j], ...s }));
  return { kind: r.kind, items, llms };
}

/** Item fit rows (see modelFit). */
export function itemFit(fit: FitJson, ds: Dataset): ItemFitRow[] {
  return modelFit(fit, ds).items;
}

/** Person (LLM) fit rows: an LLM whose pattern the model does not explain has infit/outfit > 1.3. */
export function personFit(fit: FitJson, ds: Dataset): PersonFitRow[] {
  return modelFit(fit, ds).llms;
}
