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
import { runPool } from './pool';
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
  const trains = foldTrains(ds, fold, models);
  const fit = opts.fitter ?? fitDataset;
  // Job q is fold ⌊q / models⌋ with model q mod models: fold-major, so one
  // lane at a time keeps a single training copy alive.
  const perFold = await runPool(total, opts.jobs ?? 1, async (q) => {
    throwIfAborted(opts.signal);
    const f = Math.floor(q / models.length);
    const model = models[q % models.length];
    const { train, shares } = trains.take(f);
    const stage = `fold ${f + 1}/${k}: ${model}`;
    opts.onProgress?.({ task: 'cv', done, total, stage });
    const json = await fit(
      train,
      { ...opts.fitSettings, model },
      {
        signal: opts.signal,
        engine: opts.engine,
        onProgress: (p) => opts.onProgress?.({ task: 'cv', done, total, stage, fit: p }),
      },
    );
    trains.release(f);
    const pred = predictorFromFit(json, ds, { distractors: shares });
    done++;
    return {
      model,
      fold: f,
      ...evaluateCells(pred, ds, foldCells(fold, f)),
      nTrain: json.nCells,
      converged: json.converged,
      fitSeconds: json.seconds,
    } satisfies CvFoldResult;
  });
  opts.onProgress?.({ task: 'cv', done, total, stage: 'done' });
  const summary = models.map((model) => {
    const rows = perFold.filter((r) => r.model === model);
    return { model, ...summariseMetrics(rows, CELL_METRICS) };
  });
  return { folds: k, seed, perFold, summary };
}

/**
 * Each fold's training copy (its cells hidden) and the binary models'
 * distractor shares, made when a fold's first job takes it and dropped when its
 * last job is done.
 */
function foldTrains(ds: Dataset, fold: Int16Array, models: readonly ModelType[]) {
  const made = new Map<
    number,
    { train: Dataset; shares?: ReturnType<typeof distractorShares>; left: number }
  >();
  return {
    take(f: number) {
      let m = made.get(f);
      if (!m) {
        const train = hideCells(ds, (c) => fold[c] === f);
        const shares = models.some(isBinary) ? distractorShares(train) : undefined;
        m = { train, shares, left: models.length };
        made.set(f, m);
      }
      return m;
    },
    release(f: number) {
      const m = made.get(f)!;
      if (--m.left === 0) made.delete(f);
    },
  };
}
