/**
 * Held-out response prediction (paper Table 1): cell-level K-fold
 * cross-validation over the observed (LLM, item) cells.
 *
 * Each fold's cells are hidden from the training copy of the data (every LLM
 * and item stays in the fit through its other cells); every model is fitted to
 * it and predicts the hidden cells. Binary models predict options by spreading
 * 1 − P(key) over distractors in proportion to add-one-smoothed counts of the
 * training cells' argmax choices on that item.
 */
import type { Dataset } from '../data/types';
import { CV_MODELS } from '../defaults';
import { fitDataset } from '../fit/fit';
import { isBinary, type ModelType } from '../model/types';
import { summariseMetrics, throwIfAborted, type EvalRunOptions } from './common';
import { cellFolds, foldCells, hideCells } from './folds';
import { CELL_METRICS, evaluateCells, type CellMetrics } from './metrics';
import { distractorShares, predictorFromFit } from './predict';

export interface CrossValidateOptions extends EvalRunOptions {
  models?: readonly ModelType[];
  folds?: number;
  seed?: number;
}

/** One model on one test fold. */
export interface CvFoldResult extends CellMetrics {
  model: ModelType;
  fold: number;
  /** Training cells. */
  nTrain: number;
  converged: boolean;
  fitSeconds: number;
}

/** One CSV row per model: metric means and sample sds over the folds. */
export interface CvSummaryRow {
  model: ModelType;
  [metric: string]: number | string;
}

export interface CrossValidateResult {
  folds: number;
  seed: number;
  perFold: CvFoldResult[];
  summary: CvSummaryRow[];
}

export async function crossValidate(
  ds: Dataset,
  opts: CrossValidateOptions = {},
): Promise<CrossValidateResult> {
  const models = opts.models ?? CV_MODELS;
  const k = opts.folds ?? 5;
  const seed = opts.seed ?? 1;
  const fold = cellFolds(ds, k, seed);
  const total = k * models.length;
  let done = 0;
  const perFold: CvFoldResult[] = [];
  for (let f = 0; f < k; f++) {
    throwIfAborted(opts.signal);
    const test = foldCells(fold, f);
    const train = hideCells(ds, (c) => fold[c] === f);
    const shares = models.some(isBinary) ? distractorShares(train) : undefined;
    for (const model of models) {
      const stage = `fold ${f + 1}/${k}: ${model}`;
      opts.onProgress?.({ task: 'cv', done, total, stage });
      const fit = await fitDataset(
        train,
        { ...opts.fitSettings, model },
        {
          signal: opts.signal,
          engine: opts.engine,
          onProgress: (p) => opts.onProgress?.({ task: 'cv', done, total, stage, fit: p }),
        },
      );
      const pred = predictorFromFit(fit, ds, { distractors: shares });
      perFold.push({
        model,
        fold: f,
        ...evaluateCells(pred, ds, test),
        nTrain: fit.nCells,
        converged: fit.converged,
        fitSeconds: fit.seconds,
      });
      done++;
    }
  }
  opts.onProgress?.({ task: 'cv', done, total, stage: 'done' });
  const summary = models.map((model) => {
    const rows = perFold.filter((r) => r.model === model);
    return { model, ...summariseMetrics(rows, CELL_METRICS) };
  });
  return { folds: k, seed, perFold, summary };
}
