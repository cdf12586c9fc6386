/**
 * Shared pieces of the evaluation runs (paper Tables 1–3, Figs 2–3b): progress,
 * cancellation, fit options, and summary statistics over folds.
 */
import type { Dataset } from '../data/types';
import type { EngineHandle, FitOptions } from '../fit/fit';
import type { FitJson, FitProgress, FitSettings } from '../fit/types';
import { abortError } from '../fit/optim';

/** Progress of an evaluation run: `done` of `total` units (fits or scorings) finished. */
export interface EvalProgress {
  task: 'cv' | 'wrong' | 'calibrate';
  done: number;
  total: number;
  /** What is running now, in words ('fold 2/5: llmnrm'). */
  stage: string;
  /** Progress of the fit now running, when one is. */
  fit?: FitProgress;
}

/** Options every evaluation run takes. */
export interface EvalRunOptions {
  /** Settings for every fit (the model is set per run); defaults are the fit's defaults (fast optimiser). */
  fitSettings?: Partial<FitSettings>;
  onProgress?: (p: EvalProgress) => void;
  /** Cancels the run: it rejects with an Error named 'AbortError'. */
  signal?: AbortSignal;
  /** Fitting engine (the fused CPU engine when omitted). */
  engine?: EngineHandle;
  /**
   * Runs one fit (fitDataset when omitted): the CLI's runs each in a worker
   * thread, so that `jobs` of them run at once. Same result as fitDataset.
   */
  fitter?: FitRunner;
  /** How many fits may run at once (1 when omitted; cross-validation only). */
  jobs?: number;
}

/** One fit of a data set, as fitDataset runs it (FitOptions.engine is the runner's own). */
export type FitRunner = (
  ds: Dataset,
  settings: Partial<FitSettings>,
  opts: Pick<FitOptions, 'signal' | 'onProgress' | 'engine'>,
) => Promise<FitJson>;

export function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw abortError();
}

/** Mean and sample standard deviation (n − 1; 0 for one value) of the finite values. */
export function meanSdSample(x: ArrayLike<number>): { mean: number; sd: number; n: number } {
  const v = Array.from(x).filter(Number.isFinite);
  const n = v.length;
  if (n === 0) return { mean: NaN, sd: NaN, n };
  const mean = v.reduce((s, t) => s + t, 0) / n;
  const ss = v.reduce((s, t) => s + (t - mean) ** 2, 0);
  return { mean, sd: n > 1 ? Math.sqrt(ss / (n - 1)) : 0, n };
}

/** `{ [name_mean], [name_sd] }` for each metric, over a list of per-fold records. */
export function summariseMetrics<K extends string>(
  records: Record<K, number>[],
  names: readonly K[],
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of names) {
    const s = meanSdSample(records.map((r) => r[m]));
    out[`${m}_mean`] = s.mean;
    out[`${m}_sd`] = s.sd;
  }
  return out;
}
