/**
 * What the Evaluate tab sends to the worker and gets back: one request per
 * evaluation run of the paper (Tables 1–3, Figs 2a/2b, 3a, 3b) and its result.
 * Plain data only; types only, so the client imports nothing at run time.
 */
import type { CompressResult } from '../core/bank/compress';
import type { CalibrateResult } from '../core/eval/calibrate';
import type { CrossValidateResult } from '../core/eval/cv';
import type { ExternalRow, ExternalScore } from '../core/eval/external';
import type { BenchmarkInfoRow } from '../core/eval/info';
import type { NameMatch } from '../core/eval/names';
import type { WrongOnlyResult } from '../core/eval/wrong';
import type { FitJson, FitSettings } from '../core/fit/types';
import type { Channel, ModelType } from '../core/model/types';

/** Settings shared by every fit of a run; the run sets the model. `engine` defaults to 'auto'. */
export type EvalFitSettings = Partial<Omit<FitSettings, 'model'>>;

/** Table 1: cell-level K-fold prediction of held-out responses. */
export interface CvRequest {
  kind: 'cv';
  models: ModelType[];
  folds: number;
  seed: number;
  fitSettings: EvalFitSettings;
}

/** Table 2: Spearman ρ of θ (each fit) and raw accuracy with an external score. */
export interface ExternalRequest {
  kind: 'external';
  fits: FitJson[];
  scores: ExternalScore[];
  matches: NameMatch[];
  bootstrap: number;
  seed: number;
}

/** Table 3: θ of held-out LLMs from correctness alone vs wrong answers alone. */
export interface WrongRequest {
  kind: 'wrong';
  model: ModelType;
  folds: number;
  seed: number;
  channels: Channel[];
  fitSettings: EvalFitSettings;
}

/** Figs 2a/2b: information and informative distractors per benchmark of one fit. */
export interface InfoRequest {
  kind: 'info';
  fit: FitJson;
}

/** Fig. 3a: Kendall τ of CAT rankings from k items against the whole bank. */
export interface CompressRequest {
  kind: 'compress';
  models: ModelType[];
  folds: number;
  seed: number;
  budgets: number[];
  tauTarget: number;
  fitSettings: EvalFitSettings;
}

/** Fig. 3b: held-out binary log-loss of new LLMs against banks calibrated on n LLMs. */
export interface CalibrateRequest {
  kind: 'calibrate';
  models: ModelType[];
  /** Fleet sizes; Infinity is the whole calibration pool. */
  sizes: number[];
  draws: number;
  heldOut: number;
  seed: number;
  scoreChannel: 'option' | 'binary';
  fitSettings: EvalFitSettings;
}

export type EvalRequest =
  CvRequest | ExternalRequest | WrongRequest | InfoRequest | CompressRequest | CalibrateRequest;

export type EvalKind = EvalRequest['kind'];

/** What each run returns: the core function's result, unchanged. */
export interface EvalResults {
  cv: CrossValidateResult;
  external: { rows: ExternalRow[]; used: NameMatch[] };
  wrong: WrongOnlyResult;
  info: BenchmarkInfoRow[];
  compress: CompressResult;
  calibrate: CalibrateResult;
}

/** A finished run, tagged by kind so the client can narrow without casts. */
export type EvalReply = {
  [K in EvalKind]: { kind: K; result: EvalResults[K]; seconds: number };
}[EvalKind];

/** Progress of a run, throttled to about 10 per second. */
export interface EvalProgressReport {
  kind: EvalKind;
  /** Units (fits, scorings, adaptive tests) finished, of `total`. */
  done: number;
  total: number;
  /** What runs now, in words ('fold 2/5: llmnrm'). */
  stage: string;
  /** The fit now running, when one is. */
  fit?: { step: number; maxSteps: number };
  elapsedMs: number;
}
