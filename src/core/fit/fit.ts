import type { Dataset } from '../data/types';
import { createFusedEngine } from '../engines/fused';
import type { Engine, EngineName, Problem } from '../engines/types';
import { makeObjective, pose } from './pose';
import { resolveGate } from '../model/gate';
import { isBinary } from '../model/types';
import { adam, type OptimResult, type OptimStep } from './optim';
import { countPreconditioner } from './precond';
import { specsAt, type PriorScale } from '../model/hprior';
import { fastFit, FAST_WARMUP, mixedPrecision } from './fast';
import { choosePriorStrength, type StrengthChoice } from './strength';
import { buildFitJson } from './result';
import { blockCurvature } from './blocks';
import {
  DEFAULT_SETTINGS,
  PAPER_ADAM,
  type FitJson,
  type FitProgress,
  type FitSettings,
  type TracePoint,
} from './types';

export { FAST_WARMUP } from './fast';

/** How to get an engine for a problem, with the reason it was chosen. */
export interface EngineHandle {
  name: EngineName;
  reason: string;
  create(problem: Problem): Promise<Engine>;
}

export const FUSED_HANDLE: EngineHandle = {
  name: 'fused',
  reason: 'fused CPU engine (default)',
  create: async (problem) => createFusedEngine(problem),
};

export interface FitOptions {
  onProgress?: (p: FitProgress) => void;
  signal?: AbortSignal;
  engine?: EngineHandle;
  /** Start from this free vector instead of the documented start (resume, warm start). */
  start?: Float64Array;
  /**
   * Told after every optimiser step with the current free vector (live: copy it
   * to keep it), so a caller can checkpoint a long fit and resume it with `start`.
   */
  onCheckpoint?: (c: FitCheckpoint) => void;
  /** Awaited as the final fit's L-BFGS phase starts (FastOptions.beforeLbfgs; a test hook). */
  beforeLbfgs?: () => Promise<void>;
  /** The prior-strength search's cell cap (strength.ts SEARCH_MAX_CELLS); for tests and benches. */
  searchMaxCells?: number;
}

/** A step's iterate, as `FitOptions.onCheckpoint` receives it. */
export interface FitCheckpoint {
  x: Float64Array;
  step: number;
  /** The objective at (or, for Adam, just before) `x`. */
  objective: number;
}

/** What a fit returns besides fit.json: the free vector, for warm starts and checkpoints. */
export interface FitOutcome {
  json: FitJson;
  x: Float64Array;
}

/**
 * Fit a model to a data set by MAP. Cancelling through `signal` rejects with
 * an Error named 'AbortError' and leaves no engine resources behind.
 */
export async function fitDataset(
  ds: Dataset,
  settings: Partial<FitSettings>,
  opts: FitOptions = {},
): Promise<FitJson> {
  return (await fitDatasetFull(ds, settings, opts)).json;
}

export async function fitDatasetFull(
  ds: Dataset,
  settingsIn: Partial<FitSettings>,
  opts: FitOptions = {},
): Promise<FitOutcome> {
  const settings: FitSettings = { ...DEFAULT_SETTINGS, ...settingsIn };
  // The gate form in force, recorded (paper mode: eq. 10; the default: the margin unless asked).
  if (!isBinary(settings.model)) settings.gate = resolveGate(settings.mode, settings.gate);
  if (ds.J < 1 || ds.I < 1) throw new Error('The data set has no LLMs or no items to fit.');
  if (settings.mode === 'default' && ds.J < 2)
    throw new Error(
      'The well-posed default standardises θ over LLMs and needs at least 2 LLMs; use paper mode.',
    );
  const t0 = performance.now();
  const posed = pose(ds, settings);
  if (opts.start && opts.start.length === posed.x0.length) posed.x0.set(opts.start);
  const handle = opts.engine ?? FUSED_HANDLE;
  const engine = await handle.create(posed.problem);
  try {
    const obj = makeObjective(posed, engine);
    const trace: TracePoint[] = [];
    let lastReport = 0;
    const maxSteps = settings.steps;
    let lastStep: OptimStep = { step: 0, passes: 0, value: NaN };
    const onStep = (s: OptimStep) => {
      lastStep = s;
      if (s.x) opts.onCheckpoint?.({ x: s.x, step: s.step, objective: s.value });
      if (settings.optimizer === 'fast' || s.step % 10 === 0 || s.step === 1)
        trace.push({
          step: s.step,
          passes: s.passes,
          objective: s.value,
          crossEntropy: obj.last.crossEntropy,
          seconds: (performance.now() - t0) / 1000,
        });
      const now = performance.now();
      if (now - lastReport > 100) {
        lastReport = now;
        opts.onProgress?.({
          step: s.step,
          passes: s.passes,
          objective: s.value,
          elapsedMs: now - t0,
          maxSteps,
          optimiser: s.optimiser,
        });
      }
    };
    const reportPhase = (st: OptimStep, phase: string) => {
      const now = performance.now();
      if (now - lastReport <= 100) return;
      lastReport = now;
      opts.onProgress?.({
        step: st.step,
        passes: st.passes,
        objective: st.value,
        elapsedMs: now - t0,
        maxSteps,
        phase,
        optimiser: st.optimiser,
      });
    };
    const f = (x: Float64Array, g: Float64Array, coarse?: boolean) => obj.f(x, g, coarse);
    // Mixed precision where the engine has a float32 path (the fast optimiser only:
    // paper Adam stays float64, as the reference it is measured against).
    const mixed =
      settings.optimizer === 'fast' && mixedPrecision(settings) && engine.float32 === true;
    let res: OptimResult;
    const override = settings.prior ?? {};
    let selection: StrengthChoice | null = null;
    if (settings.optimizer === 'adam') {
      res = await adam(f, posed.x0, {
        maxSteps,
        lr: settings.lr,
        beta1: PAPER_ADAM.beta1,
        beta2: PAPER_ADAM.beta2,
        eps: PAPER_ADAM.eps,
        signal: opts.signal,
        onStep,
      });
    } else {
      let start = posed.x0;
      let warm = opts.start ? 0 : (settings.warmup ?? FAST_WARMUP);
      if (settings.mode === 'default' && posed.P.groups.length > 0) {
        let lambda = settings.priorStrength;
        if (lambda === undefined) {
          selection = await choosePriorStrength(ds, settings, handle, {
            full: posed,
            maxCells: opts.searchMaxCells,
            signal: opts.signal,
            onStep: (st) => reportPhase(st, 'choosing the prior strength'),
          });
          lambda = selection.lambda;
          if (selection.x && !opts.start) {
            start = selection.x;
            // From a share's end point the items not searched are still at the
            // documented start: they keep the warm-up (docs/priors.md).
            if (!selection.share) warm = 0;
          }
        }
        posed.P.priors = specsAt(posed.P.groups, lambda, override);
        settings.priorStrength = lambda;
      }
      res = await fastFit(f, start, {
        settings,
        warm,
        precond: countPreconditioner(posed),
        coarse: mixed,
        signal: opts.signal,
        onStep,
        beforeLbfgs: opts.beforeLbfgs,
        curvature: blockCurvature(posed, f, {
          kind: settings.curvature,
          onPass: (done, of) =>
            reportPhase(
              { ...lastStep, passes: lastStep.passes + done },
              `measuring the curvature (pass ${done} of ${of})`,
            ),
        }),
      });
    }
    // Re-evaluate at the returned point so every reported part belongs to it.
    const g = new Float64Array(res.x.length);
    const objective = await obj.f(res.x, g);
    const seconds = (performance.now() - t0) / 1000;
    trace.push({
      step: res.steps,
      passes: res.passes + 1,
      objective,
      crossEntropy: obj.last.crossEntropy,
      seconds,
    });
    opts.onProgress?.({
      step: res.steps,
      passes: res.passes,
      objective,
      elapsedMs: seconds * 1000,
      maxSteps,
    });
    const json = await buildFitJson({
      ds,
      settings,
      posed,
      engine,
      nat: Float64Array.from(obj.nat),
      parts: { ...obj.last },
      res,
      seconds,
      engineReason: engine.detail ? `${handle.reason}; ${engine.detail}` : handle.reason,
      precision: mixed ? 'mixed' : 'float64',
      trace,
      scales: scalesOf(posed.P.groups, posed.P.priors, override),
      priorSelection: selection
        ? {
            lambda: selection.lambda,
            reason: selection.reason,
            trials: selection.trials,
            passes: selection.passes,
          }
        : undefined,
    });
    return { json, x: res.x };
  } finally {
    engine.dispose();
  }
}

/** The priors in force, one row per group, as fit.json reports them. */
function scalesOf(
  groups: readonly { group: PriorScale['group']; slots: Uint32Array }[],
  specs: import('../model/hprior').PriorSpecs,
  override: import('../model/hprior').PriorOverride,
): PriorScale[] {
  return groups.map((G) => ({
    group: G.group,
    n: G.slots.length,
    sd: specs[G.group]!.sd,
    mean: specs[G.group]!.mean,
    learned: override[G.group] === undefined,
  }));
}
