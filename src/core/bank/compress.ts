/**
 * Benchmark compression (paper Fig. 3a): how few adaptively chosen items rank
 * new LLMs like the whole bank does. Folds over LLMs: calibrate a bank on the
 * training LLMs, run a CAT for every held-out LLM, and compare the held-out
 * ranking by θ from the first k items with the ranking by θ from every bank
 * item (items fixed), by Kendall's τ.
 */
import type { Dataset } from '../data/types';
import { subsetDataset } from '../data/subset';
import { fitDataset, type EngineHandle } from '../fit/fit';
import { abortError } from '../fit/optim';
import type { FitProgress, FitSettings } from '../fit/types';
import { createRng, permutation } from '../model/rng';
import type { ModelType } from '../model/types';
import { COMPRESS_BUDGETS, COMPRESS_TAU, CURVE_MODELS } from '../defaults';
import { kendall } from '../stats/corr';
import { bankFromFit } from './bank';
import { runCat } from './cat';
import { estimateLlm, responseTarget, type Response } from './estimate';
import { responseModel, type ResponseModel } from './model';

export interface CompressProgress {
  /** Fits plus held-out LLM runs finished, of `total`. */
  done: number;
  total: number;
  /** What is running now ('fold 2/5: llmnrm, fitting'). */
  stage: string;
  fit?: FitProgress;
}

export interface CompressOptions {
  folds?: number;
  seed?: number;
  /** Item budgets; capped at the number of items (default COMPRESS_BUDGETS). */
  budgets?: readonly number[];
  models?: readonly ModelType[];
  /** τ a budget must reach to count as enough (default 0.85, the paper's figure at 41 items). */
  tauTarget?: number;
  fitSettings?: Partial<FitSettings>;
  engine?: EngineHandle;
  onProgress?: (p: CompressProgress) => void;
  signal?: AbortSignal;
}

/** One point of the curve: a model at a budget. */
export interface CompressRow {
  model: ModelType;
  k: number;
  /** Mean and sample sd over folds of the per-fold Kendall τ. */
  tau_mean: number;
  tau_sd: number;
  /** τ over all held-out LLMs of all folds together. */
  tau_pooled: number;
  folds: number;
  llms: number;
}

export interface CompressResult {
  budgets: number[];
  rows: CompressRow[];
  /** Smallest budget whose mean per-fold τ reaches tauTarget, per model (null: none does). */
  smallestK: Record<string, number | null>;
  /** The same by pooled τ (steadier when folds hold only a few LLMs). */
  smallestKPooled: Record<string, number | null>;
  perFold: { model: ModelType; fold: number; k: number; tau: number; llms: number }[];
}

/** Seeded split of J LLMs into `folds` held-out sets of near-equal size. */
export function llmFolds(J: number, folds: number, seed: number): number[][] {
  if (!Number.isInteger(folds) || folds < 2)
    throw new Error(`Folds must be an integer ≥ 2 (got ${folds}).`);
  if (J < 2 * folds)
    throw new Error(
      `${J} LLMs are too few for ${folds} folds: each held-out fold needs at least 2 LLMs to rank.`,
    );
  const perm = permutation(J, createRng(seed));
  const out: number[][] = Array.from({ length: folds }, () => []);
  perm.forEach((j, q) => out[q % folds].push(j));
  return out.map((f) => f.sort((a, b) => a - b));
}

/** All of an LLM's observed responses on bank items. */
function allResponses(m: ResponseModel, ds: Dataset, j: number): Response[] {
  const rs: Response[] = [];
  ds.itemIds.forEach((id, i) => {
    const b = m.index.get(id);
    if (b === undefined || !ds.observed[j * ds.I + i]) return;
    const off = (j * ds.I + i) * ds.Kmax;
    rs.push({ item: b, y: responseTarget(m, m.items[b], ds.obs.subarray(off, off + ds.Kmax)) });
  });
  return rs;
}

function meanSd(v: number[]): { mean: number; sd: number } {
  const x = v.filter(Number.isFinite);
  const mean = x.reduce((a, b) => a + b, 0) / (x.length || NaN);
  const ss = x.reduce((a, b) => a + (b - mean) ** 2, 0);
  return { mean, sd: x.length > 1 ? Math.sqrt(ss / (x.length - 1)) : 0 };
}

/** The compression curve: Kendall τ per model and item budget. */
export async function compressionCurve(
  ds: Dataset,
  opts: CompressOptions = {},
): Promise<CompressResult> {
  const models = opts.models ?? CURVE_MODELS;
  const budgets = [
    ...new Set((opts.budgets ?? COMPRESS_BUDGETS).map((k) => Math.min(Math.round(k), ds.I))),
  ]
    .filter((k) => k >= 1)
    .sort((a, b) => a - b);
  if (budgets.length === 0) throw new Error('No item budget ≥ 1 given.');
  const kMax = budgets[budgets.length - 1];
  const folds = llmFolds(ds.J, opts.folds ?? 5, opts.seed ?? 1);
  const total = models.length * (folds.length + ds.J);
  let done = 0;
  const report = (stage: string, fit?: FitProgress) =>
    opts.onProgress?.({ done, total, stage, fit });
  const perFold: CompressResult['perFold'] = [];
  // θ per model and budget over all held-out LLMs, and the full-bank reference.
  const pooled = new Map<string, number[]>();
  const ref = new Map<ModelType, number[]>();
  for (let f = 0; f < folds.length; f++) {
    const test = folds[f];
    const testSet = new Set(test);
    const train = Array.from({ length: ds.J }, (_, j) => j).filter((j) => !testSet.has(j));
    const trainDs = subsetDataset(ds, train);
    for (const model of models) {
      const stage = `fold ${f + 1}/${folds.length}: ${model}`;
      report(`${stage}, fitting`);
      const fit = await fitDataset(
        trainDs,
        { ...opts.fitSettings, model },
        {
          signal: opts.signal,
          engine: opts.engine,
          onProgress: (p) => report(`${stage}, fitting`, p),
        },
      );
      done++;
      const m = responseModel(bankFromFit(fit, { dataFiles: [] }));
      const full: number[] = [];
      const byK = budgets.map(() => [] as number[]);
      for (const j of test) {
        if (opts.signal?.aborted) throw abortError();
        report(`${stage}, adaptive test of ${ds.llmIds[j]}`);
        full.push(
          (await estimateLlm(m, allResponses(m, ds, j), undefined, { signal: opts.signal })).theta,
        );
        const cat = await runCat(m, ds, j, { maxItems: kMax, signal: opts.signal });
        budgets.forEach((k, b) =>
          byK[b].push(cat.trace[Math.min(k, cat.trace.length) - 1]?.theta ?? 0),
        );
        done++;
      }
      ref.set(model, [...(ref.get(model) ?? []), ...full]);
      budgets.forEach((k, b) => {
        perFold.push({ model, fold: f, k, tau: kendall(byK[b], full), llms: test.length });
        const key = `${model}\t${k}`;
        pooled.set(key, [...(pooled.get(key) ?? []), ...byK[b]]);
      });
    }
  }
  const rows: CompressRow[] = [];
  const smallestK: Record<string, number | null> = {};
  const smallestKPooled: Record<string, number | null> = {};
  const target = opts.tauTarget ?? COMPRESS_TAU;
  for (const model of models) {
    smallestK[model] = null;
    smallestKPooled[model] = null;
    for (const k of budgets) {
      const taus = perFold.filter((r) => r.model === model && r.k === k).map((r) => r.tau);
      const { mean, sd } = meanSd(taus);
      const tauPooled = kendall(pooled.get(`${model}\t${k}`)!, ref.get(model)!);
      rows.push({
        model,
        k,
        tau_mean: mean,
        tau_sd: sd,
        tau_pooled: tauPooled,
        folds: folds.length,
        llms: ds.J,
      });
      if (smallestK[model] === null && mean >= target) smallestK[model] = k;
      if (smallestKPooled[model] === null && tauPooled >= target) smallestKPooled[model] = k;
    }
  }
  report('done');
  return { budgets, rows, smallestK, smallestKPooled, perFold };
}
