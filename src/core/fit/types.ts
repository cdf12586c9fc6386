import type { EngineChoice, EngineName } from '../engines/types';
import type { PriorOverride, PriorScale } from '../model/hprior';
import type { Mode } from '../model/params';
import type { StopReason } from './optim/types';
import type { ModelType } from '../model/types';
import type { GateForm } from '../model/gate';

export type OptimizerName = 'fast' | 'adam';

/** Everything that decides a fit. Plain data: crosses the worker boundary. */
export interface FitSettings {
  model: ModelType;
  /** 'default' is well-posed (θ standardised, weak priors); 'paper' is eq. 15 as written. */
  mode: Mode;
  /** 'fast' = L-BFGS to convergence; 'adam' = the paper's full-batch Adam. */
  optimizer: OptimizerName;
  /** Adam steps, or the iteration cap for 'fast' (for each of the final fit's starts, branch.ts). */
  steps: number;
  /** Adam learning rate. */
  lr: number;
  seed: number;
  engine: EngineChoice;
  /** 'fast' converges when the relative change of the objective stays below this ... */
  tol: number;
  /** ... and the scaled gradient norm max √P|g| is at most this (default GTOL). */
  gtol?: number;
  /** Default mode: fixed prior sds for some groups; the rest follow the prior strength. */
  prior?: PriorOverride;
  /**
   * Default mode: the prior strength λ (σ_g = λ · r_g). Absent: chosen from
   * the data by held-out likelihood (strength.ts). A finished fit records it
   * here, so continuing or resuming that fit keeps the same objective.
   */
  priorStrength?: number;
  /** Fast optimiser: Adam warm-up steps before L-BFGS from a cold start (default FAST_WARMUP). */
  warmup?: number;
  /** Fast optimiser: L-BFGS memory, in curvature pairs (default FAST_MEMORY). */
  memory?: number;
  /**
   * Fast optimiser: L-BFGS's initial inverse Hessian. 'blocks' (the default for
   * nominal models): the probed block curvature of each item, LLM and the gate
   * (blocks.ts, 2·Kmax + 3 passes a probe); 'exact' (nominal models in the
   * default mode with the margin gate or none; elsewhere 'blocks' runs and is
   * recorded): the same blocks' exact Hessians from one pass (exactBlocks.ts);
   * 'counts': the diagonal guess from observation counts (precond.ts), the only
   * one for binary models. fit.ts CURVATURE is the default where 'exact' applies.
   */
  curvature?: 'exact' | 'blocks' | 'counts';
  /**
   * Fast optimiser: 'mixed' (default) lets the Adam warm-up and L-BFGS's early
   * steps take the engine's float32 path where it has one (the wasm engine);
   * L-BFGS finishes in float64, and every reported figure is float64.
   * 'float64' evaluates in float64 throughout.
   */
  precision?: 'mixed' | 'float64';
  /**
   * Fast optimiser, default mode, nominal models with the margin gate or none:
   * how the final fit's cold start begins. 'lbfgs' (the default, fit.ts
   * FINAL_FIT): the Adam warm-up, then the joint L-BFGS; 'alternate': up to 10
   * sweeps of item-wise then LLM-wise Newton steps (alternate.ts) in place of
   * the warm-up, then the joint L-BFGS to the same gradient test. A finished
   * fit records 'alternate' where it ran.
   */
  finalFit?: 'alternate' | 'lbfgs';
  /** Binary models: correctness as argmax = key ('hard') or the mass on the key ('soft'). */
  binaryTarget?: 'hard' | 'soft';
  /**
   * The default mode's priors on a, c and log s in a model with a positional
   * bias or fallback (model/hprior.ts): 'fixed' at FIXED_PRIORS (λ scales δ
   * and ρ only), or 'strength', one λ for every group. Resolved from the data
   * and recorded: 'strength' where every observed cell is one-hot, else 'fixed'.
   */
  itemPriors?: 'fixed' | 'strength';
  /**
   * The fallback gate's form (model/gate.ts): 'margin', the item's own log-odds
   * margin f_i(θ) (eq. 8; the default mode's default), or 'eq10', the paper's
   * σ[w0 − κ(θ − b̃_i)] (paper mode always uses it).
   */
  gate?: GateForm;
}

/** The paper-faithful Adam: lr 0.05, β 0.9/0.999, ε 1e-8, 2,500 steps. */
export const PAPER_ADAM = { lr: 0.05, beta1: 0.9, beta2: 0.999, eps: 1e-8, steps: 2500 } as const;

/**
 * The fast optimiser's gradient test: max_q √P_q |g_q| ≤ GTOL, with P the
 * count preconditioner (≈ 1 / observations behind each parameter). Then a
 * Newton step on any one parameter is about |g| P ≤ GTOL √P: at 18 LLMs per
 * item, under 5e-6 in that parameter's units, far inside its standard error,
 * and tight enough that the same cells in any file format give θ within 1e-4
 * (formats.test.ts).
 */
export const GTOL = 1e-5;

export const DEFAULT_SETTINGS: FitSettings = {
  model: 'llmnrm',
  mode: 'default',
  optimizer: 'fast',
  steps: 2500,
  lr: PAPER_ADAM.lr,
  seed: 1,
  engine: 'auto',
  tol: 1e-8,
};

/** One candidate prior strength and its held-out cross-entropy per cell. */
export interface StrengthTrial {
  lambda: number;
  heldOutLoss: number;
  converged: boolean;
}

/**
 * λ's share of SE(θ) (strengthShare.ts): the jackknife over the search's
 * folds of log λ, carried to θ by its slope in log λ from two warm refits.
 */
export interface StrengthSpread {
  /** Jackknife SD of log λ over the search's folds. */
  sdLogLambda: number;
  /** λ chosen again with each fold left out. */
  leaveOneOut: number[];
  /** The refits' step in log λ (at λ·e^±step). */
  step: number;
  /** Passes of the two refits (counted in the fit's). */
  passes: number;
  /** Whether both refits passed the convergence test. */
  converged: boolean;
}

/**
 * One of the final fit's two starts (branch.ts): the documented start ('open',
 * w0 = −2) or the gate shut ('shut'), its optimum's objective and the
 * held-out loss per cell of its fits on the search's folds, each fold fitted
 * from its own start.
 */
export interface StartTrial {
  start: 'open' | 'shut';
  w0: number;
  /** The optimised objective at its optimum (cross-entropy + prior + penalty). */
  objective: number;
  heldOutLoss: number;
  /** Held-out loss per cell of each fold's fit, in the search's fold order. */
  foldLoss?: number[];
  converged: boolean;
  /** Passes of this start's fit and of its fits on the folds. */
  passes: number;
  kept: boolean;
}

/** Progress of a running fit, reported every few steps. */
export interface FitProgress {
  step: number;
  /** Loss+gradient passes over the data so far. */
  passes: number;
  /** The optimised objective (CE + prior + penalty). */
  objective: number;
  elapsedMs: number;
  /** Step cap (for a progress bar). */
  maxSteps: number;
  /** What the fit is doing now, when it is not the main fit ('choosing prior strength'). */
  phase?: string;
  /** The optimiser taking the steps ('Adam' warm-up, then 'L-BFGS'), when known. */
  optimiser?: 'Adam' | 'L-BFGS';
}

export interface LlmResult {
  id: string;
  theta: number;
  /**
   * SE of θ_j: the Laplace SE at λ (`seMethod`) and, where measured, λ's share
   * (`thetaSELambda`) in quadrature.
   */
  thetaSE: number;
  /** λ's share of SE(θ_j): |∂θ_j/∂log λ| · sd(log λ) (priorSelection.spread). */
  thetaSELambda?: number;
  /** Sharpness s_j (1 when the model has none). */
  s: number;
  /** Laplace SE of s_j (delta method from log s), when the model has sharpness. */
  sSE?: number;
  /** Positional bias δ_j over Kmax positions (zeros when none). */
  delta: number[];
  /** Fallback logits ρ_j over Kmax positions (zeros when none). */
  rho: number[];
  /** Share of observed items whose argmax is the key. */
  accuracy: number;
  /** Observed item count. */
  nObserved: number;
}

export interface ItemResult {
  id: string;
  benchmark: string;
  /** Key as a label ('A'...). */
  key: string;
  nOptions: number;
  /** Nominal models: centred option discriminations in label order. */
  a?: number[];
  /** Nominal models: centred option intercepts in label order. */
  c?: number[];
  /** Nominal: b̃ (eq. 10, guarded). Binary: difficulty −d/a. */
  b: number;
  /** Binary models: slope, intercept d, lower and upper asymptotes. */
  slope?: number;
  d?: number;
  g?: number;
  u?: number;
  /** Laplace SEs (uncertainty/laplace.ts), including every other parameter's uncertainty. */
  aSE?: number[];
  cSE?: number[];
  bSE?: number;
  slopeSE?: number;
  dSE?: number;
  gSE?: number;
  uSE?: number;
}

/** One recorded optimiser step. */
export interface TracePoint {
  step: number;
  /** Loss+gradient passes so far. */
  passes: number;
  objective: number;
  crossEntropy: number;
  seconds: number;
}

/**
 * The fit's portable form: what the CLI writes as fit.json and the app exports.
 * `objective` is the paper's L (eq. 15) = crossEntropy + ½Σθ²; `penalty` is what
 * the well-posed default adds on top (0 in paper mode).
 */
export interface FitJson {
  schema: 'llm-nrm-fit/1';
  model: ModelType;
  mode: Mode;
  optimizer: OptimizerName;
  objective: number;
  crossEntropy: number;
  penalty: number;
  prior: number;
  meanCrossEntropy: number;
  nCells: number;
  /** Optimiser steps of the fit shown (the kept start's, where two ran: branch.ts). */
  steps: number;
  /** Passes over the data: every start's and the refits' (the λ search's are in priorSelection). */
  passes: number;
  converged: boolean;
  /** Why the optimiser stopped (see StopReason). */
  stopReason?: StopReason;
  /** The convergence test's norm max_q √P_q |g_q| at the end (free parameters). */
  gradNorm?: number;
  /** The largest absolute gradient entry at the end (free parameters). */
  gradMax?: number;
  /** The priors in force: learnt scales (default mode) or the user's fixed ones. */
  priors?: PriorScale[];
  /** Default mode: how the prior strength λ was chosen, with each candidate's held-out loss. */
  priorSelection?: {
    lambda: number;
    reason: string;
    trials: StrengthTrial[];
    passes: number;
    /** The final fit's two starts, where both ran (branch.ts), the kept one marked. */
    starts?: StartTrial[];
    /** λ's own uncertainty, carried into SE(θ) (strengthShare.ts); absent where not measured. */
    spread?: StrengthSpread;
  };
  seconds: number;
  engine: EngineName;
  engineReason: string;
  /**
   * 'mixed': the warm-up and L-BFGS's early passes ran the engine's float32
   * kernel (settings.precision); 'float64' otherwise. Every figure in this
   * file is computed in float64 either way.
   */
  precision?: 'mixed' | 'float64';
  settings: FitSettings;
  /**
   * The fallback gate's form the fit ran with (models with the fallback gate):
   * 'margin', G = σ[w0 − κ f_i(θ_j)] with f_i the item's correct-versus-incorrect
   * log-odds margin (eq. 8), or 'eq10', the paper's G = σ[w0 − κ(θ_j − b̃_i)].
   * Absent in files written before it existed: read as 'eq10' (model/gate.ts gateOf).
   */
  gate?: GateForm;
  /**
   * Models with the fallback gate: the largest G_ji over the observed cells.
   * Below GATE_SHUT the gate is shut on this data: the fit equals the
   * no-fallback model (model/gate.ts).
   */
  gateMax?: number;
  Kmax: number;
  llms: LlmResult[];
  items: ItemResult[];
  global: { w0: number; kappa: number; w0SE?: number; kappaSE?: number };
  /** How thetaSE and the other SEs were computed (uncertainty/laplace.ts), in words. */
  seMethod?: string;
  /** Things the fit could not identify (items with no variance, ...), in words. */
  notes: string[];
  /** Objective after each recorded step, for the convergence chart. */
  trace: TracePoint[];
}
