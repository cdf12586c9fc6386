/**
 * Model comparison on one data set: log-likelihood, free parameters, AIC,
 * BIC and the held-out log-loss from cell-level cross-validation, side by side.
 *
 * How soft targets enter: every observed cell counts as ONE multinomial draw
 * from its observed option distribution π, so its log-likelihood is the
 * expectation Σ_k π_k log p_k (minus the soft cross-entropy) and BIC's n is
 * the number of observed cells. All models are scored on the same thing, the
 * option distribution: binary models spread 1 − P(key) over the distractors by
 * the smoothed shares of the LLMs' wrong choices (as in cross-validation), and
 * those shares are counted as Σ_i (K_i − 2) parameters.
 *
 * Held-out log-loss is the primary criterion. The fits are penalised (MAP with
 * data-chosen priors, θ as fixed effects), so logLik is a joint likelihood at
 * a penalised estimate and AIC/BIC are rough guides, not the marginal-
 * likelihood criteria of mirt; the parameter count of the LLM-specific terms
 * (s, δ, ρ, one set per LLM) grows with J, which BIC punishes hard.
 */
import type { Dataset } from '../data/types';
import { CV_MODELS } from '../defaults';
import { throwIfAborted, type EvalRunOptions } from '../eval/common';
import { crossValidate } from '../eval/cv';
import { distractorShares, predictorFromFit } from '../eval/predict';
import { fitDataset } from '../fit/fit';
import type { FitJson } from '../fit/types';
import type { Mode } from '../model/params';
import { isBinary, nominalTerms, type ModelType } from '../model/types';

export interface CompareRow {
  model: ModelType;
  /** Σ over observed cells of Σ_k π_k log p_k at the full-data fit. */
  logLik: number;
  /** Free parameters after the identification constraints (see nParameters). */
  nPar: number;
  AIC: number;
  BIC: number;
  /** Mean per-cell option log-loss on held-out cells (cross-validation); lower is better. */
  heldOutLogLoss: number;
  heldOutLogLossSd: number;
  /** Observed cells: BIC's n. */
  nCells: number;
  converged: boolean;
}

export const COMPARE_COLUMNS = [
  'model',
  'logLik',
  'nPar',
  'AIC',
  'BIC',
  'heldOutLogLoss',
  'heldOutLogLossSd',
  'nCells',
  'converged',
] as const;

/**
 * Free parameters of `model` on `ds` after constraints. Default mode
 * standardises θ (J − 2), fixes the geometric mean of s (J − 1), centres δ
 * over positions and over LLMs ((J − 1)(Kmax − 1)) and ρ over positions
 * (J(Kmax − 1)); a and c are centred per item (K_i − 1 each); the gate adds
 * w0 and κ. Paper mode has none of the θ, s, δ constraints. Binary models
 * count slope (1 shared for 1PL), d, g, u per item, plus the distractor shares.
 */
export function nParameters(model: ModelType, ds: Dataset, mode: Mode = 'default'): number {
  const { J, I, Kmax } = ds;
  const constrained = mode === 'default' && J >= 2;
  let n = constrained ? J - 2 : J;
  if (isBinary(model)) {
    n += model === '1pl' ? (mode === 'paper' ? 0 : 1) : I;
    n += I;
    if (model === '3pl' || model === '4pl') n += I;
    if (model === '4pl') n += I;
    for (let i = 0; i < I; i++) n += Math.max(0, ds.nOptions[i] - 2);
    return n;
  }
  const f = nominalTerms(model);
  if (f.sharpness) n += constrained ? J - 1 : J;
  if (f.position) n += (constrained ? J - 1 : J) * (Kmax - 1);
  if (f.fallback) n += J * (Kmax - 1) + 2;
  for (let i = 0; i < I; i++) n += 2 * (ds.nOptions[i] - 1);
  return n;
}

/** Σ_cells Σ_k π_k log p_k of a fit on the observed cells of ds (probabilities floored at 1e-15). */
export function optionLogLik(fit: FitJson, ds: Dataset): number {
  const pred = predictorFromFit(fit, ds, {
    distractors: isBinary(fit.model) ? distractorShares(ds) : undefined,
  });
  const p = new Float64Array(ds.Kmax);
  let ll = 0;
  for (let j = 0; j < ds.J; j++)
    for (let i = 0; i < ds.I; i++) {
      if (!ds.observed[j * ds.I + i]) continue;
      pred.probs(j, i, p);
      const off = (j * ds.I + i) * ds.Kmax;
      for (let k = 0; k < ds.nOptions[i]; k++) {
        const q = ds.obs[off + k];
        if (q > 0) ll += q * Math.log(Math.max(p[k], 1e-15));
      }
    }
  return ll;
}

export interface CompareOptions extends EvalRunOptions {
  models?: readonly ModelType[];
  folds?: number;
  seed?: number;
}

export interface CompareResult {
  rows: CompareRow[];
  folds: number;
}

/** Fit every model to all of ds and cross-validate it; one row per model. */
export async function compareModels(
  ds: Dataset,
  opts: CompareOptions = {},
): Promise<CompareResult> {
  const models = opts.models ?? CV_MODELS;
  const folds = opts.folds ?? 5;
  let nCells = 0;
  for (let x = 0; x < ds.J * ds.I; x++) nCells += ds.observed[x];
  const full: FitJson[] = [];
  for (const [m, model] of models.entries()) {
    throwIfAborted(opts.signal);
    const stage = `full data: ${model}`;
    opts.onProgress?.({ task: 'cv', done: 0, total: models.length, stage });
    full.push(
      await fitDataset(
        ds,
        { ...opts.fitSettings, model },
        {
          signal: opts.signal,
          engine: opts.engine,
          onProgress: (p) =>
            opts.onProgress?.({ task: 'cv', done: m, total: models.length, stage, fit: p }),
        },
      ),
    );
  }
  const cv = await crossValidate(ds, { ...opts, models, folds, seed: opts.seed ?? 1 });
  const rows = models.map((model, m) => {
    const fit = full[m];
    const logLik = optionLogLik(fit, ds);
    const nPar = nParameters(model, ds, fit.mode);
    const s = cv.summary.find((r) => r.model === model)!;
    return {
      model,
      logLik,
      nPar,
      AIC: -2 * logLik + 2 * nPar,
      BIC: -2 * logLik + nPar * Math.log(nCells),
      heldOutLogLoss: s.optionLogLoss_mean as number,
      heldOutLogLossSd: s.optionLogLoss_sd as number,
      nCells,
      converged: fit.converged,
    };
  });
  return { rows, folds };
}
