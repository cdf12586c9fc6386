/**
 * Calibrating an item bank with fewer LLMs (paper Fig. 3b).
 *
 * Protocol. For each seeded draw, a share of the LLMs (`heldOut`, default a
 * quarter) is set aside as new LLMs; the rest is the calibration pool. Each
 * held-out LLM's observed items are split at random into two halves: a scoring
 * half and an evaluation half. For each calibration size n (capped at the
 * pool; 'all' is the whole pool) the bank is fitted on the first n LLMs of a
 * seeded shuffle of the pool (nested subsets within a draw), every held-out
 * LLM is scored against the fixed bank from its scoring half (θ, and for the
 * LLM-NRM family its own s, δ, ρ; `scoreLlms`), and P(key) is predicted on its
 * evaluation half. The figure is the binary log-loss of correctness (argmax =
 * key) on those cells, with Brier score and accuracy beside it; means and
 * sample sds over draws.
 *
 * Scoring channel: nominal models are scored from the full option response of
 * the scoring half by default (`scoreChannel: 'option'`), each model using the
 * information it models; `scoreChannel: 'binary'` scores every model from
 * correctness only. Binary models always score from correctness.
 */
import { subsetDataset } from '../data/subset';
import type { Dataset } from '../data/types';
import { fitDataset } from '../fit/fit';
import { scoreLlms } from '../fit/score';
import { CALIBRATE_DEFAULTS, CALIBRATE_SIZES, CURVE_MODELS } from '../defaults';
import { createRng, permutation } from '../model/rng';
import { isBinary, type ModelType } from '../model/types';
import { summariseMetrics, throwIfAborted, type EvalRunOptions } from './common';
import { hideCells } from './folds';
import { BINARY_METRICS, evaluateBinaryCells, type CellMetrics } from './metrics';
import { predictorFromFit } from './predict';

export interface CalibrateOptions extends EvalRunOptions {
  models?: readonly ModelType[];
  /** Calibration fleet sizes; Infinity means the whole pool. */
  sizes?: readonly number[];
  draws?: number;
  /** Share of LLMs held out as new LLMs in each draw (default 0.25; at least 1, leaving at least 2 to calibrate). */
  heldOut?: number;
  seed?: number;
  scoreChannel?: 'option' | 'binary';
}

export interface CalibrateDrawResult extends CellMetrics {
  model: ModelType;
  draw: number;
  size: number;
  sizeLabel: string;
  nHeldOut: number;
}

export interface CalibrateRow {
  model: ModelType;
  size: number;
  sizeLabel: string;
  draws: number;
  [metric: string]: number | string;
}

export interface CalibrateResult {
  rows: CalibrateRow[];
  perDraw: CalibrateDrawResult[];
  scoreChannel: 'option' | 'binary';
}

export async function calibrationCurve(
  ds: Dataset,
  opts: CalibrateOptions = {},
): Promise<CalibrateResult> {
  const models = opts.models ?? CURVE_MODELS;
  const draws = opts.draws ?? CALIBRATE_DEFAULTS.draws;
  const scoreChannel = opts.scoreChannel ?? CALIBRATE_DEFAULTS.scoreChannel;
  if (ds.J < 3)
    throw new Error('Calibration curves need at least 3 LLMs (2 to calibrate, 1 to hold out).');
  const nTest = Math.min(
    ds.J - 2,
    Math.max(1, Math.round((opts.heldOut ?? CALIBRATE_DEFAULTS.heldOut) * ds.J)),
  );
  const poolSize = ds.J - nTest;
  const sizeOf = (n: number) => Math.min(poolSize, n);
  const sizes = [...new Set((opts.sizes ?? CALIBRATE_SIZES).map(sizeOf))].sort((a, b) => a - b);
  if (sizes.some((n) => !Number.isInteger(n) || n < 2))
    throw new RangeError(`Calibration sizes must be integers ≥ 2 (got ${sizes.join(', ')}).`);
  const rng = createRng(opts.seed ?? CALIBRATE_DEFAULTS.seed);
  const total = draws * sizes.length * models.length;
  let done = 0;
  const perDraw: CalibrateDrawResult[] = [];
  for (let d = 0; d < draws; d++) {
    const perm = Array.from(permutation(ds.J, rng));
    const testIdx = perm.slice(0, nTest).sort((a, b) => a - b);
    const pool = perm.slice(nTest);
    const held = subsetDataset(ds, testIdx);
    // Split each held-out LLM's observed items into a scoring and an evaluation half.
    const evalCell = new Uint8Array(held.J * held.I);
    for (let j = 0; j < held.J; j++) {
      const items: number[] = [];
      for (let i = 0; i < held.I; i++) if (held.observed[j * held.I + i]) items.push(i);
      const p = permutation(items.length, rng);
      for (let q = Math.floor(items.length / 2); q < items.length; q++)
        evalCell[j * held.I + items[p[q]]] = 1;
    }
    const scoring = hideCells(held, (c) => evalCell[c] === 1);
    const evalCells: number[] = [];
    for (let c = 0; c < evalCell.length; c++) if (evalCell[c]) evalCells.push(c);
    for (const size of sizes) {
      const calIdx = pool.slice(0, size).sort((a, b) => a - b);
      const cal = subsetDataset(ds, calIdx);
      const sizeLabel = size === poolSize ? `all (${size})` : String(size);
      for (const model of models) {
        throwIfAborted(opts.signal);
        const stage = `draw ${d + 1}/${draws}: ${model} calibrated on ${size} LLMs`;
        opts.onProgress?.({ task: 'calibrate', done, total, stage });
        const bank = await fitDataset(
          cal,
          { ...opts.fitSettings, model },
          {
            signal: opts.signal,
            engine: opts.engine,
            onProgress: (p) => opts.onProgress?.({ task: 'calibrate', done, total, stage, fit: p }),
          },
        );
        const scored = await scoreLlms(scoring, bank, {
          channel: isBinary(model) ? 'binary' : scoreChannel,
          signal: opts.signal,
        });
        const pred = predictorFromFit(bank, held, { llms: scored.llms });
        perDraw.push({
          model,
          draw: d,
          size,
          sizeLabel,
          nHeldOut: nTest,
          ...evaluateBinaryCells(pred, held, evalCells),
        });
        done++;
      }
    }
  }
  opts.onProgress?.({ task: 'calibrate', done, total, stage: 'done' });
  const rows: CalibrateRow[] = [];
  for (const model of models)
    for (const size of sizes) {
      const r = perDraw.filter((x) => x.model === model && x.size === size);
      rows.push({
        model,
        size,
        sizeLabel: r[0].sizeLabel,
        draws: r.length,
        ...summariseMetrics(r, BINARY_METRICS),
      });
    }
  return { rows, perDraw, scoreChannel };
}
