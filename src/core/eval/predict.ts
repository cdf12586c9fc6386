/**
 * Predicting cells from a fitted model: the natural-parameter vector of a
 * fit.json rebuilt against a data set, and a per-cell predictor giving the
 * option distribution and P(key) for every model type.
 */
import type { Dataset } from '../data/types';
import { OPTION_LABELS } from '../data/types';
import type { FitJson, LlmResult } from '../fit/types';
import { gateOf } from '../model/gate';
import { argmaxAt } from '../model/cells';
import { allBtilde, nominalProbs } from '../model/nominal';
import {
  binaryLayout,
  isBinary,
  nominalFlags,
  nominalLayout,
  type BinaryLayout,
  type NominalFlags,
  type NominalLayout,
  type NominalModel,
} from '../model/types';

function indexById<T extends { id: string }>(rows: T[], ids: string[], what: string): T[] {
  const by = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => {
    const r = by.get(id);
    if (!r) throw new Error(`The fit has no ${what} "${id}".`);
    return r;
  });
}

function checkItems(fit: FitJson, ds: Dataset) {
  const items = indexById(fit.items, ds.itemIds, 'item');
  items.forEach((it, i) => {
    if (it.nOptions !== ds.nOptions[i] || it.key !== OPTION_LABELS[ds.key[i]])
      throw new Error(
        `Item ${it.id}: the data has key ${OPTION_LABELS[ds.key[i]]} of ${ds.nOptions[i]} options, the fit key ${it.key} of ${it.nOptions}.`,
      );
  });
  return items;
}

/**
 * The natural parameters (layout `nominalLayout(ds.J, ds.I, ds.Kmax)`:
 * theta, s, delta, rho, a, c, w0, kappa) of a nominal-family fit, aligned with
 * the data set's LLMs and items by id. `llms` replaces the fit's LLM results
 * (e.g. LLMs scored against the fit as a fixed bank). δ and ρ shorter than
 * ds.Kmax are padded with 0; positions past an item's K are never read.
 */
export function natFromFit(
  fit: FitJson,
  ds: Dataset,
  llms: LlmResult[] = fit.llms,
): { nat: Float64Array; layout: NominalLayout; flags: NominalFlags } {
  if (isBinary(fit.model))
    throw new Error(`natFromFit: ${fit.model} is a binary model; use binaryNatFromFit.`);
  const flags = nominalFlags(fit.model as NominalModel, gateOf(fit));
  const L = nominalLayout(ds.J, ds.I, ds.Kmax);
  const nat = new Float64Array(L.size);
  const K = ds.Kmax;
  indexById(llms, ds.llmIds, 'LLM').forEach((l, j) => {
    nat[L.theta + j] = l.theta;
    nat[L.s + j] = flags.sharpness ? l.s : 1;
    for (let k = 0; k < Math.min(K, l.delta.length); k++) nat[L.delta + j * K + k] = l.delta[k];
    for (let k = 0; k < Math.min(K, l.rho.length); k++) nat[L.rho + j * K + k] = l.rho[k];
  });
  checkItems(fit, ds).forEach((it, i) => {
    it.a!.forEach((v, k) => (nat[L.a + i * K + k] = v));
    it.c!.forEach((v, k) => (nat[L.c + i * K + k] = v));
  });
  nat[L.w0] = fit.global.w0;
  nat[L.kappa] = fit.global.kappa;
  return { nat, layout: L, flags };
}

/** The natural parameters (layout `binaryLayout`: theta, a, d, g, u) of a binary fit. */
export function binaryNatFromFit(
  fit: FitJson,
  ds: Dataset,
  llms: LlmResult[] = fit.llms,
): { nat: Float64Array; layout: BinaryLayout } {
  if (!isBinary(fit.model))
    throw new Error(`binaryNatFromFit: ${fit.model} is not a binary model.`);
  const L = binaryLayout(ds.J, ds.I);
  const nat = new Float64Array(L.size);
  indexById(llms, ds.llmIds, 'LLM').forEach((l, j) => (nat[L.theta + j] = l.theta));
  checkItems(fit, ds).forEach((it, i) => {
    nat[L.a + i] = it.slope ?? 1;
    nat[L.d + i] = it.d ?? 0;
    nat[L.g + i] = it.g ?? 0;
    nat[L.u + i] = it.u ?? 1;
  });
  return { nat, layout: L };
}

/**
 * Per item, how a binary model spreads its non-key mass 1 − P over the
 * distractors: add-one-smoothed counts of the observed cells of `train` whose
 * argmax is each distractor, normalised over the distractors (I × Kmax; the
 * key and padding hold 0).
 */
export function distractorShares(train: Dataset): Float64Array {
  const { J, I, Kmax } = train;
  const w = new Float64Array(I * Kmax);
  for (let i = 0; i < I; i++) {
    const K = train.nOptions[i];
    const g = train.key[i];
    for (let k = 0; k < K; k++) if (k !== g) w[i * Kmax + k] = 1;
    for (let j = 0; j < J; j++) {
      if (!train.observed[j * I + i]) continue;
      const top = argmaxAt(train.obs, (j * I + i) * Kmax, K);
      if (top !== g) w[i * Kmax + top] += 1;
    }
    let s = 0;
    for (let k = 0; k < K; k++) s += w[i * Kmax + k];
    for (let k = 0; k < K; k++) w[i * Kmax + k] /= s;
  }
  return w;
}

/** Predictions of a fitted model for the cells of one data set. */
export interface CellPredictor {
  /** Predicted option distribution of LLM j on item i, into out[0..K_i). */
  probs(j: number, i: number, out: Float64Array): void;
  /** Predicted probability of the keyed option. */
  pKey(j: number, i: number): number;
}

export interface PredictorOptions {
  /** LLM parameters to use instead of the fit's (LLMs scored against the fit). */
  llms?: LlmResult[];
  /**
   * Binary models: distractor shares (`distractorShares` of the training data,
   * aligned with `ds`). Uniform over distractors when omitted.
   */
  distractors?: Float64Array;
}

/**
 * A predictor for the cells of `ds` from `fit` (LLMs and items matched by id).
 * Nominal models give the full LLM-NRM distribution (eq. 13, with each
 * variant's terms) and P(key) = p_key. Binary models give P(key) and spread
 * 1 − P(key) over distractors by `distractors`.
 */
export function predictorFromFit(
  fit: FitJson,
  ds: Dataset,
  opts: PredictorOptions = {},
): CellPredictor {
  const { Kmax } = ds;
  if (isBinary(fit.model)) {
    const { nat, layout: L } = binaryNatFromFit(fit, ds, opts.llms);
    const share = opts.distractors;
    const pKey = (j: number, i: number) => {
      const z = nat[L.a + i] * nat[L.theta + j] + nat[L.d + i];
      return nat[L.g + i] + (nat[L.u + i] - nat[L.g + i]) / (1 + Math.exp(-z));
    };
    return {
      pKey,
      probs(j, i, out) {
        const K = ds.nOptions[i];
        const g = ds.key[i];
        const P = pKey(j, i);
        for (let k = 0; k < K; k++)
          out[k] = k === g ? P : (1 - P) * (share ? share[i * Kmax + k] : 1 / (K - 1));
      },
    };
  }
  const { nat, layout: L, flags } = natFromFit(fit, ds, opts.llms);
  const bt = allBtilde(nat, L, ds.nOptions, ds.key);
  const scratch = new Float64Array(Kmax);
  return {
    probs(j, i, out) {
      nominalProbs(nat, L, flags, j, i, ds.nOptions[i], ds.key[i], bt[i], out);
    },
    pKey(j, i) {
      nominalProbs(nat, L, flags, j, i, ds.nOptions[i], ds.key[i], bt[i], scratch);
      return scratch[ds.key[i]];
    },
  };
}
