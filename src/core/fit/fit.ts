import type { Dataset } from '../data/types';
import type { Engine } from '../engines/types';
import { FUSED_HANDLE, type EngineHandle } from './engineHandle';
import { makeObjective, pose, type NominalPosed, type Posed } from './pose';
import { canonicalPosing } from './canonical';
import { resolveGate } from '../model/gate';
import { isBinary } from '../model/types';
import { adam, type OptimResult, type OptimStep } from './optim';
import { countPreconditioner } from './precond';
import { followsStrength, specsAt, type PriorGroupRef, type PriorScale } from '../model/hprior';
import { fastFit, FAST_WARMUP, mixedPrecision } from './fast';
import { choosePriorStrength, type StrengthChoice } from './strength';
import { strengthPath } from './path';
import { gateShutAt, scoringFolds, shutAt, startsHeldOut, twoStarts } from './branch';
import { keptStart } from './startRule';
import { buildFitJson } from './result';
import { blockCurvature, PROBE_EVERY } from './blocks';
import { exactCurvature, probedThenExact } from './exactBlocks';
import { alternate, alternates } from './alternate';
import { jackknifeLogStrength, STRENGTH_STEP, thetaSlope } from './strengthShare';
import {
  DEFAULT_SETTINGS,
  PAPER_ADAM,
  type FitJson,
  type FitProgress,
  type FitSettings,
  type StartTrial,
  type TracePoint,
} from './types';

export { FAST_WARMUP } from './fast';

/**
 * Where the issue 28 paths apply (fit.ts finalPath), the final fit's default
 * curvature (FitSettings.curvature) and start-up (FitSettings.finalFit).
 */
export const CURVATURE: NonNullable<FitSettings['curvature']> = 'blocks';
export const FINAL_FIT: NonNullable<FitSettings['finalFit']> = 'lbfgs';

export { FUSED_HANDLE, type EngineHandle } from './engineHandle';

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
  /**
   * The prior strength λ the fit runs at, once chosen (a resume from `x` sets
   * it and skips the search).
   */
  priorStrength?: number;
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
  const settings = settingsFor(ds, settingsIn);
  const t0 = performance.now();
  // The fast path fits the canonical copy: this posing's cells are built when first evaluated.
  const posed = pose(ds, settings, { lazy: settings.optimizer !== 'adam' });
  if (opts.start && opts.start.length === posed.x0.length) posed.x0.set(opts.start);
  const handle = opts.engine ?? FUSED_HANDLE;
  const track = tracker(settings, opts, t0);
  const args: RunArgs = { posed, settings, handle, opts, track };
  const run = settings.optimizer === 'adam' ? await runAdam(args) : await runFast(ds, args);
  const { res, engine, obj, selection } = run;
  try {
    // Re-evaluate at the returned point so every reported part belongs to it.
    const g = new Float64Array(res.x.length);
    const objective = await obj.f(res.x, g);
    const seconds = (performance.now() - t0) / 1000;
    track.trace.push({
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
      maxSteps: settings.steps,
    });
    const override = settings.prior ?? {};
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
      precision: run.mixed ? 'mixed' : 'float64',
      trace: track.trace,
      scales: scalesOf(posed.P.groups, posed.P.priors, override),
      priorSelection: selection
        ? {
            lambda: selection.lambda,
            reason: selection.reason,
            trials: selection.trials,
            passes: selection.passes,
            ...(selection.starts && { starts: selection.starts }),
            ...(selection.spread && { spread: selection.spread }),
          }
        : undefined,
      thetaSlope: selection?.slope,
    });
    return { json, x: res.x };
  } finally {
    engine.dispose();
  }
}

/** The settings in force: the defaults, then the caller's; checked against the data. */
function settingsFor(ds: Dataset, settingsIn: Partial<FitSettings>): FitSettings {
  const settings: FitSettings = { ...DEFAULT_SETTINGS, ...settingsIn };
  // The gate form in force, recorded (paper mode: eq. 10; the default: the margin unless asked).
  if (!isBinary(settings.model)) settings.gate = resolveGate(settings.mode, settings.gate);
  // The priors on a, c and log s: fixed on soft data, one λ on one-hot data (hprior.ts).
  if (!isBinary(settings.model) && settings.mode === 'default')
    settings.itemPriors ??= everyCellOneHot(ds) ? 'strength' : 'fixed';
  if (ds.J < 1 || ds.I < 1) throw new Error('The data set has no LLMs or no items to fit.');
  if (settings.mode === 'default' && ds.J < 2)
    throw new Error(
      'The well-posed default standardises θ over LLMs and needs at least 2 LLMs; use paper mode.',
    );
  return settings;
}

/** Whether every observed cell puts all its mass on one option (argmax-only data). */
export function everyCellOneHot(ds: Dataset): boolean {
  for (let c = 0; c < ds.J * ds.I; c++) {
    if (!ds.observed[c]) continue;
    let top = 0;
    for (let k = 0; k < ds.nOptions[c % ds.I]; k++) top = Math.max(top, ds.obs[c * ds.Kmax + k]);
    if (top !== 1) return false;
  }
  return true;
}

type Objective = ReturnType<typeof makeObjective>;

/** What an optimiser run leaves: its result (in the data's order) and an engine and objective on the data's posing. */
interface Run {
  res: OptimResult;
  engine: Engine;
  obj: Objective;
  mixed: boolean;
  selection: StrengthChoice | null;
}

/** Progress, checkpoints and the objective trace of one fit. */
interface Tracker {
  trace: TracePoint[];
  /** An optimiser step; `ce` is the cross-entropy at it, `map` takes its iterate to the data's order. */
  step(s: OptimStep, ce: number, map?: (x: Float64Array) => Float64Array): void;
  /** Progress of a phase before the main fit (the λ search, the curvature). */
  phase(s: OptimStep, phase: string): void;
  readonly last: OptimStep;
}

function tracker(settings: FitSettings, opts: FitOptions, t0: number): Tracker {
  const trace: TracePoint[] = [];
  let lastReport = 0;
  let last: OptimStep = { step: 0, passes: 0, value: NaN };
  // Progress at most every 100 ms; `phase` names a phase before the main fit.
  const report = (s: OptimStep, phase?: string) => {
    const now = performance.now();
    if (now - lastReport <= 100) return;
    lastReport = now;
    opts.onProgress?.({
      step: s.step,
      passes: s.passes,
      objective: s.value,
      elapsedMs: now - t0,
      maxSteps: settings.steps,
      ...(phase !== undefined && { phase }),
      optimiser: s.optimiser,
    });
  };
  return {
    trace,
    get last() {
      return last;
    },
    step(s, ce, map) {
      last = s;
      if (s.x && opts.onCheckpoint)
        opts.onCheckpoint({
          x: map ? map(s.x) : s.x,
          step: s.step,
          objective: s.value,
          priorStrength: settings.priorStrength,
        });
      if (settings.optimizer === 'fast' || s.step % 10 === 0 || s.step === 1)
        trace.push({
          step: s.step,
          passes: s.passes,
          objective: s.value,
          crossEntropy: ce,
          seconds: (performance.now() - t0) / 1000,
        });
      report(s);
    },
    phase: report,
  };
}

/** What each optimiser's run is given: the posed data, the settings and where to report. */
interface RunArgs {
  posed: Posed;
  settings: FitSettings;
  handle: EngineHandle;
  opts: FitOptions;
  track: Tracker;
}

/** The paper's method: full-batch Adam on the data as given. */
async function runAdam({ posed, settings, handle, opts, track }: RunArgs): Promise<Run> {
  const engine = await handle.create(posed.problem);
  try {
    const obj = makeObjective(posed, engine);
    const f = (x: Float64Array, g: Float64Array) => obj.f(x, g);
    const res = await adam(f, posed.x0, {
      maxSteps: settings.steps,
      lr: settings.lr,
      beta1: PAPER_ADAM.beta1,
      beta2: PAPER_ADAM.beta2,
      eps: PAPER_ADAM.eps,
      signal: opts.signal,
      onStep: (s) => track.step(s, obj.last.crossEntropy),
    });
    return { res, engine, obj, mixed: false, selection: null };
  } catch (e) {
    engine.dispose();
    throw e;
  }
}

/**
 * The fast optimiser (docs/optimiser.md): in the default mode λ chosen by
 * cross-validation first (strength.ts), then the fit, on the data's canonical
 * copy (canonical.ts) so equal cells give an equal fit whatever their names,
 * order or format. The result is mapped back to the data's order and an
 * engine on the data's own posing replaces the canonical one.
 */
async function runFast(ds: Dataset, args: RunArgs): Promise<Run> {
  const { posed, settings, handle, opts, track } = args;
  const canon = canonicalPosing(ds, posed, (data) => pose(data, settings));
  const cposed = canon.posed;
  // The canonical copy's own documented start: the data's order changes its last bits.
  let start = opts.start ? canon.toCanonical(posed.x0) : cposed.x0;
  let warm = opts.start ? 0 : (settings.warmup ?? FAST_WARMUP);
  let selection: StrengthChoice | null = null;
  const override = settings.prior ?? {};
  if (settings.mode === 'default' && posed.P.groups.length > 0) {
    let lambda = settings.priorStrength;
    if (lambda === undefined) {
      selection = await choosePriorStrength(ds, settings, handle, {
        full: posed,
        maxCells: opts.searchMaxCells,
        signal: opts.signal,
        onStep: (st) => track.phase(st, 'choosing the prior strength'),
      });
      lambda = selection.lambda;
      // Only a share's end point is a start (the items not searched keep the
      // documented start and the warm-up): on the whole data the mean of the
      // folds' capped fits led to worse optima than the documented start
      // (docs/priors.md).
      if (selection.x && selection.share && !opts.start) start = canon.toCanonical(selection.x);
    }
    for (const P of [posed.P, cposed.P]) P.priors = specsAt(P.groups, lambda, override);
    settings.priorStrength = lambda;
  }
  const ladder = ladderFor(settings, posed, opts, selection);
  let res: OptimResult;
  let mixed: boolean;
  const cengine = await handle.create(cposed.problem);
  try {
    const obj = makeObjective(cposed, cengine);
    const f = (x: Float64Array, g: Float64Array, coarse?: boolean) => obj.f(x, g, coarse);
    // Mixed precision where the engine has a float32 path.
    mixed = mixedPrecision(settings) && cengine.float32 === true;
    const done = { steps: 0, passes: 0 };
    // The step count the current run may reach (the ladder's rungs: half the cap).
    let cap = settings.steps;
    const path = finalPath(settings, cposed); // issue 28: exact blocks, sweeps (finalPath)
    const first = shareStart(path, selection, opts, () =>
      gateShutAt(posed, canon.fromCanonical(start), ds),
    );
    if (first?.shut) warm = 0;
    // `phase`: a run whose steps are progress of a phase, not the fit's own (no checkpoints).
    const run = async (x0: Float64Array, w: number, phase?: string, exact = path.exact) => {
      const x =
        path.sweeps && w > 0
          ? await sweepFrom(path.sweeps, x0, { done, track, opts, canon, obj })
          : x0;
      const r = await fastFit(f, x, {
        settings: { ...settings, steps: Math.max(1, cap - done.steps) },
        warm: path.sweeps ? 0 : w,
        precond: countPreconditioner(cposed),
        coarse: mixed,
        signal: opts.signal,
        onStep: (st) => {
          const at = { ...st, step: st.step + done.steps, passes: st.passes + done.passes };
          if (phase) track.phase(at, phase);
          else track.step(at, obj.last.crossEntropy, canon.fromCanonical);
        },
        beforeLbfgs: opts.beforeLbfgs,
        curvature: runCurvature(exact, path.warm, first ? SHARE_REFILL_EVERY : PROBE_EVERY, {
          posed: cposed,
          f,
          settings,
          track,
          cengine,
        }),
      });
      done.steps += r.steps;
      done.passes += r.passes;
      return r;
    };
    const lambda = settings.priorStrength ?? 1;
    const at = (l: number) => (cposed.P.priors = specsAt(cposed.P.groups, l, override));
    // Rungs run to the full test (a loose one left formats 1e-4 apart, the
    // full one 7e-10) in at most half the cap; each start has the whole cap.
    // The first run from x0 takes `exact` (probed blocks where null); later
    // ones start at an optimum and take exact blocks there (finalPath).
    // `rungs` false: x0 is an optimum at λ already (the second start), so no ladder and no warm-up.
    const along = async (x0: Float64Array, phase?: string, exact = path.exact, rungs = true) => {
      const base = done.steps;
      const basePasses = done.passes;
      let x = x0;
      let w = rungs ? warm : 0;
      let next = exact;
      cap = base + Math.floor(settings.steps / 2);
      for (const l of rungs ? ladder : []) {
        if (done.steps >= cap) break;
        at(l);
        x = (await run(x, w, phase, next)).x;
        next = exact ?? path.warm;
        w = 0;
      }
      cap = base + settings.steps;
      at(lambda);
      const r = await run(x, w, phase, next);
      return { ...r, steps: done.steps - base, passes: done.passes - basePasses };
    };
    res = await along(start, undefined, first?.exact ?? path.exact);
    const ctx = { ds, settings, handle, opts, track, posed: cposed, along, done, ladder };
    if (selection && twoStarts(settings, cposed, selection, opts.start !== undefined))
      res = await keepBetter(res, start, { ...ctx, selection });
    if (selection?.folds && !selection.share)
      await measureSpread(selection, res.x, ctx, (x) => thetaIn(posed, canon.fromCanonical(x)));
    res = { ...res, passes: done.passes }; // steps: the kept start's; passes: all
  } finally {
    cengine.dispose();
  }
  res = { ...res, x: canon.fromCanonical(res.x) };
  const engine = await handle.create(posed.problem);
  return { res, engine, obj: makeObjective(posed, engine), mixed, selection };
}

/**
 * A final-fit run's L-BFGS curvature (finalPath): exact blocks from the start
 * where `exact` is given; else probed blocks, the first H0 only where exact
 * blocks can take over (`warm`, probedThenExact). Exact blocks are refilled
 * every `every` steps.
 */
function runCurvature(
  exact: NominalPosed | null,
  warm: NominalPosed | null,
  every: number,
  c: {
    posed: Posed;
    f: Parameters<typeof blockCurvature>[1];
    settings: FitSettings;
    track: Tracker;
    cengine: Engine;
  },
) {
  if (exact) return exactCurvature(exact, every, c.cengine);
  const probed = blockCurvature(c.posed, c.f, {
    kind: c.settings.curvature,
    onPass: (n, of) =>
      c.track.phase(
        { ...c.track.last, passes: c.track.last.passes + n },
        `measuring the curvature (pass ${n} of ${of})`,
      ),
  });
  return probedThenExact(probed, warm, every, c.cengine);
}

/** θ of free vector x of `posed` (its LLMs' order). */
function thetaIn(posed: Posed, x: Float64Array): Float64Array {
  const nat = new Float64Array(posed.P.natSize);
  posed.P.toNatural(x, nat);
  const { theta, J } = posed.problem.layout;
  return nat.slice(theta, theta + J);
}

/**
 * λ's share of SE(θ) (strengthShare.ts): the jackknife of log λ over the
 * search's folds and θ's slope in log λ from two warm refits at the optimum
 * `x` of the canonical copy; the refits' passes join the fit's.
 */
async function measureSpread(
  selection: StrengthChoice,
  x: Float64Array,
  c: {
    posed: Posed;
    settings: FitSettings;
    handle: EngineHandle;
    opts: FitOptions;
    track: Tracker;
    done: { passes: number };
  },
  thetaOf: (x: Float64Array) => Float64Array,
): Promise<void> {
  const jack = jackknifeLogStrength(selection.folds!);
  const t = await thetaSlope(c.posed, x, selection.lambda, {
    settings: c.settings,
    handle: c.handle,
    override: c.settings.prior ?? {},
    thetaOf,
    signal: c.opts.signal,
    onStep: (st) => c.track.phase(st, "measuring θ's slope in the prior strength"),
  });
  c.done.passes += t.passes;
  selection.slope = t.slope;
  selection.spread = {
    sdLogLambda: jack.sd,
    leaveOneOut: jack.u.map((u) => Number(Math.exp(u).toPrecision(4))),
    step: STRENGTH_STEP,
    passes: t.passes,
    converged: t.converged,
  };
}

/**
 * The second start (branch.ts): where the documented start's gate ended open,
 * a fit at λ from its optimum with the gate shut (`shutAt`); both starts
 * scored the same way on the search's first draw of folds, each fold from its
 * own documented start (their passes counted in the fit's), and the gate-open optimum kept
 * only where its gain has a paired t above OPEN_T (startRule.ts); the trials
 * go to `selection`.
 */
async function keepBetter(
  first: OptimResult,
  start: Float64Array,
  c: {
    ds: Dataset;
    settings: FitSettings;
    handle: EngineHandle;
    opts: FitOptions;
    track: Tracker;
    posed: Posed;
    along: (
      x0: Float64Array,
      phase: string,
      exact: NominalPosed | null,
      rungs: boolean,
    ) => Promise<OptimResult>;
    selection: StrengthChoice;
    /** The fit's pass count, which the scoring fits' passes join. */
    done: { passes: number };
    /** The strengths the final fit ran at before λ (ladderFor), for the scoring fits. */
    ladder: readonly number[];
  },
): Promise<OptimResult> {
  const { data, folds } = scoringFolds(c.ds, c.settings);
  // The documented start's gate ended shut: its optimum is the one the shut start leads to.
  if (gateShutAt(c.posed, first.x, data)) return first;
  const from = shutAt(c.posed, first.x, start);
  // Exact curvature blocks from one sweep (exactBlocks.ts) for this start: with
  // the gate shut the surface is the no-fallback model's, and they reached the
  // same optimum as the probed blocks at a quarter of the passes (reading 1,242
  // → 405 with the refits; economics 1,493 → 465; pooled demo 1,835 → 481).
  const exact = alternates(c.posed) ? c.posed : null;
  const second = await c.along(from, 'a second start, with the fallback gate shut', exact, false);
  const scoring = {
    signal: c.opts.signal,
    onStep: (st: OptimStep) => c.track.phase(st, "scoring both starts on the search's folds"),
  };
  const w0 = c.posed.kind === 'nominal' ? c.posed.P.free.w0 : 0;
  const h = await startsHeldOut(data, folds, c.settings, c.handle, c.ladder, scoring);
  c.done.passes += h.open.passes + h.shut.passes;
  const trials: StartTrial[] = (
    [
      [first, start, h.open, 'open'],
      [second, from, h.shut, 'shut'],
    ] as const
  ).map(([r, x0, held, name]) => ({
    start: name,
    w0: x0[w0],
    objective: r.value,
    heldOutLoss: held.loss,
    foldLoss: held.folds.map((l) => Number(l.toPrecision(6))),
    converged: r.converged,
    passes: r.passes + held.passes,
    kept: false,
  }));
  const k = keptStart(h.open.folds, h.shut.folds);
  trials[k].kept = true;
  c.selection.starts = trials;
  return k === 1 ? second : first;
}

/**
 * The strengths the final fit runs at before λ (path.ts). The objective has
 * more than one optimum where the gate opens, and which one a start reaches
 * jumps as λ moves by a few per cent. From the documented start the fit
 * follows the optimum down a fixed ladder of strengths from PATH_TOP to λ, on
 * the canonical copy (the same under any names or order): the end point moves
 * with λ continuously, along one branch. Not under eq. 10's gate: its stiff
 * surface (b̃'s denominator) kept the rungs from their test and left the fit at
 * λ unconverged on the demo.
 */
function ladderFor(
  settings: FitSettings,
  posed: Posed,
  opts: FitOptions,
  selection: StrengthChoice | null,
): number[] {
  const ok =
    settings.mode === 'default' &&
    settings.gate !== 'eq10' &&
    posed.P.groups.length > 0 &&
    !opts.start &&
    !selection?.share;
  return ok ? strengthPath(settings.priorStrength ?? 1) : [];
}

/** The alternating sweeps from x (a cold start), counted into `done`; returns their end point. */
async function sweepFrom(
  posed: NominalPosed,
  x: Float64Array,
  c: {
    done: { steps: number; passes: number };
    track: Tracker;
    opts: FitOptions;
    canon: { fromCanonical: (x: Float64Array) => Float64Array };
    obj: Objective;
  },
): Promise<Float64Array> {
  const { done, track, opts, canon, obj } = c;
  const a = await alternate(posed, x, {
    signal: opts.signal,
    onSweep: (st) =>
      track.step(
        {
          step: done.steps + st.sweep,
          passes: done.passes + Math.ceil(st.passes),
          value: st.value,
          x: st.x,
        },
        obj.last.crossEntropy,
        canon.fromCanonical,
      ),
  });
  done.steps += a.sweeps;
  done.passes += a.passes;
  return a.x;
}

/**
 * The final fit's path (issue 28) on the canonical problem: `exact`, the
 * problem whose L-BFGS takes exact block curvature from one sweep
 * (FitSettings.curvature 'exact', the default where it applies: nominal
 * models in the default mode with the margin gate or none); `sweeps`, the
 * problem whose cold start (the ladder's first rung, or the one run) runs
 * the alternating sweeps in place of the Adam warm-up (FitSettings.finalFit
 * 'alternate'). `warm`: the problem whose runs after the ladder's first rung
 * take exact blocks (unless the settings ask for probed blocks or none):
 * they start at the last rung's optimum, where exact blocks reached the
 * same optima as probed ones at 0.6–0.7 of the passes (docs/priors.md); the
 * first, cold run keeps the probed blocks, with which the 60 × 400
 * simulation of fit.test reaches its lower optimum. The settings record
 * what runs.
 */
function finalPath(
  settings: FitSettings,
  posed: Posed,
): { exact: NominalPosed | null; sweeps: NominalPosed | null; warm: NominalPosed | null } {
  const ok = settings.mode === 'default' && alternates(posed) ? posed : null;
  if (!ok) {
    // Where exact blocks do not apply the probed ones run, and are recorded.
    if (settings.curvature === 'exact') settings.curvature = 'blocks';
    return { exact: null, sweeps: null, warm: null };
  }
  // Warm runs (the ladder's rungs after the first, the fit at λ after a
  // rung) take exact blocks unless the settings ask for probed ones or none.
  const warm = settings.curvature === 'blocks' || settings.curvature === 'counts' ? null : ok;
  // What runs is recorded where it is not the path before issue 28 (or was asked for).
  if ((settings.curvature ?? CURVATURE) === 'exact') settings.curvature = 'exact';
  if ((settings.finalFit ?? FINAL_FIT) === 'alternate') settings.finalFit = 'alternate';
  return {
    exact: settings.curvature === 'exact' ? ok : null,
    sweeps: settings.finalFit === 'alternate' ? ok : null,
    warm,
  };
}

/**
 * The final fit from a share's search (issue 28): the LLMs and the gate come
 * from the search's fits, so the start is near the optimum in everything but
 * the items not searched, which are independent given the LLMs. There L-BFGS
 * takes exact block curvature (one sweep; each item's block is its exact
 * Hessian), so its first steps are a Newton step per item. Where the gate is
 * shut at the start (`shut`) the Adam warm-up is skipped: its use is the open
 * gate's several basins. With it, where the gate is open, the fit reaches the
 * probed path's optimum; without it, on simulated 189 × 3,000 (gate open) a
 * higher one. docs/optimiser.md has the figures. Null where the fit does
 * not start from a share's search, or exact blocks do not apply, or the
 * settings ask for probed blocks, none, or the sweeps (the documented path
 * runs); the reason says what ran.
 */
function shareStart(
  path: ReturnType<typeof finalPath>,
  selection: StrengthChoice | null,
  opts: FitOptions,
  shutAtStart: () => boolean,
): { exact: NominalPosed; shut: boolean } | null {
  if (!selection?.share || !selection.x || opts.start) return null;
  if (!path.warm || path.sweeps) return null;
  const shut = shutAtStart();
  const blocks = `exact curvature blocks, refilled every ${SHARE_REFILL_EVERY} steps,`;
  selection.reason += shut
    ? `, with ${blocks} and, the fallback gate being shut there, no Adam warm-up`
    : `, with ${blocks} after the Adam warm-up`;
  return { exact: path.warm, shut };
}

/**
 * Steps between the exact blocks' refills in a final fit from a share's search
 * (`shareStart`; PROBE_EVERY elsewhere). Each refill is one sweep, a Newton
 * step's curvature for every item at once. At the full shape (189 × 31,554,
 * gate shut, Node) the final fit took 115 passes with a refill every 100
 * steps, 105 every 60, 93 every 45, 79 every 30 and 80 every 20, the fills
 * counted (docs/optimiser.md).
 */
export const SHARE_REFILL_EVERY = 30;

/** The priors in force, one row per group, as fit.json reports them. */
function scalesOf(
  groups: readonly (PriorGroupRef & { slots: Uint32Array })[],
  specs: import('../model/hprior').PriorSpecs,
  override: import('../model/hprior').PriorOverride,
): PriorScale[] {
  return groups.map((G) => ({
    group: G.group,
    n: G.slots.length,
    sd: specs[G.group]!.sd,
    mean: specs[G.group]!.mean,
    learned: override[G.group] === undefined && followsStrength(G),
  }));
}
