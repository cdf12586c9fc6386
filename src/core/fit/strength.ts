import { hideCells } from '../data/hide';
import type { Dataset } from '../data/types';
import { createFusedEngine } from '../engines/fused';
import type { Engine, Problem } from '../engines/types';
import { cellFolds, contentHashes, contentShare, CV_FOLDS } from './cellFolds';
import { countObserved } from '../model/cells';
import { canonicalOrder, spreadShare } from './canonical';
import { followsStrength, specsAt, STRENGTH_GRID, type PriorOverride } from '../model/hprior';
import { fastFit, FAST_WARMUP, mixedPrecision } from './fast';
import type { OptimStep } from './optim';
import { makeObjective, pose, type Posed } from './pose';
import { countPreconditioner } from './precond';
import type { FitSettings, StartTrial, StrengthSpread, StrengthTrial } from './types';
import type { EngineHandle } from './engineHandle';
import { curvatureFor } from './exactBlocks';

/** Below this many observed cells there are too few to cross-validate on: λ = 1. */
export const MIN_CELLS_TO_CHOOSE = 400;
/**
 * Step cap of each inner fit of the search. The held-out loss needs a few
 * digits, not a converged optimum; where the gate drifts (large simulated
 * sets) uncapped inner fits ran to the full cap, four times over.
 */
export const INNER_MAX_STEPS = 200;
/**
 * Above this many observed cells the search runs on a share of the items
 * holding about this many cells, chosen by the items' content (cellFolds.ts).
 * Every item keeps all its LLMs, so each item's own evidence (what the item
 * priors weigh against) is as in the full set; the search costs at most about
 * (4 + 1) × CV_FOLDS × INNER_MAX_STEPS passes over this many cells however
 * large the data set.
 */
export const SEARCH_MAX_CELLS = 200_000;
/**
 * The most draws of the CV_FOLDS folds whose held-out losses are summed. The
 * curve is flat near its minimum, so one draw's noise moves λ, and θ with it:
 * on the economics demo (1,674 cells) ten fold seeds gave λ 2.09–5.19 and
 * moved θ by up to 0.369 SE with one draw, 0.315 with two, 0.218 with three
 * (docs/priors.md).
 */
export const MAX_CV_REPEATS = 3;
/**
 * Draws are added while the search's cells times the draws stay within this
 * many: the smallest sets, where one draw is noisiest and a search takes
 * seconds, take up to MAX_CV_REPEATS (the economics demo, 1,674 cells: 3);
 * from 3,000 cells on one draw, as before (reading 4,536 and the pooled demo
 * 6,210: there three draws cost 2.5 times the fit, 8.3 → 21.0 s, and did not
 * steady θ on pooled, whose shifts come from a switch between optima, not
 * from λ's noise; docs/priors.md).
 */
export const REPEAT_CELLS = 6_000;
/** Seeds of a search's draws: `seed + DRAW_STRIDE · r`, apart from the next fold seeds' draws. */
const DRAW_STRIDE = 7919;

/** How many draws of the folds a search over `cells` observed cells sums. */
export function cvRepeats(cells: number): number {
  return Math.max(1, Math.min(MAX_CV_REPEATS, Math.floor(REPEAT_CELLS / Math.max(1, cells))));
}

/** One fold of one draw: hold out the cells with `folds[c] === k`. */
export interface FoldSpec {
  folds: Uint8Array;
  k: number;
}

/** Every fold of `repeats` draws (seeds `seed`, `seed + DRAW_STRIDE`, …). */
export function foldSpecs(
  data: Dataset,
  seed: number,
  repeats = cvRepeats(countObserved(data)),
): FoldSpec[] {
  const out: FoldSpec[] = [];
  const h = contentHashes(data);
  for (let r = 0; r < repeats; r++) {
    const folds = cellFolds(data, CV_FOLDS, seed + DRAW_STRIDE * r, h);
    for (let k = 0; k < CV_FOLDS; k++) out.push({ folds, k });
  }
  return out;
}

export interface StrengthChoice {
  lambda: number;
  trials: StrengthTrial[];
  /**
   * Free vector at the chosen λ: the mean of the folds' inner fits there, a
   * warm start for the full fit. When the search ran on a share of the items,
   * a start for the full problem built by `spreadShare` (null where it cannot
   * be: binary models).
   */
  x: Float64Array | null;
  /** True when the search ran on a share of the items. */
  share: boolean;
  passes: number;
  reason: string;
  /** The final fit's two starts, where both ran (fit.ts, branch.ts). */
  starts?: StartTrial[];
  /** Each fold's held-out loss at each grid candidate, for λ's share of the SEs (strengthShare.ts). */
  folds?: FoldLosses;
  /** λ's share of SE(θ), where the fit measured it (fit.ts, strengthShare.ts). */
  spread?: StrengthSpread;
  /** ∂θ_j/∂log λ in the data's LLM order, with `spread`. */
  slope?: Float64Array;
}

/** Held-out losses fold by fold: `loss[m][k]` summed over fold k's held cells at `lambdas[m]`. */
export interface FoldLosses {
  lambdas: number[];
  loss: number[][];
  /** Held-out cells per fold. */
  held: number[];
  /** Draws of the folds (`cvRepeats`): every cell is held out once in each. */
  draws: number;
}

/**
 * The items the search runs on: all of them up to `maxCells` observed cells,
 * else a seeded share of about maxCells / n chosen by the items' content (the
 * same items under any names, in any order or file format). `null` when all
 * are kept.
 */
export function searchItems(
  ds: Dataset,
  n: number,
  seed: number,
  maxCells = SEARCH_MAX_CELLS,
): number[] | null {
  if (n <= maxCells) return null;
  return contentShare(ds, maxCells / n, seed);
}

/** The choice when there is nothing to search: λ = 1, and why. */
function noSearch(reason: string): StrengthChoice {
  return { lambda: 1, trials: [], x: null, share: false, passes: 0, reason };
}

/** One fold's problem: trained without the fold's cells, scored on them. */
export interface Fold {
  posed: Posed;
  held: Problem;
}

export function foldProblem(data: Dataset, { folds, k }: FoldSpec, settings: FitSettings): Fold {
  const posed = pose(
    hideCells(data, (c) => folds[c] === k),
    settings,
  );
  const held = pose(
    hideCells(data, (c) => folds[c] !== k),
    settings,
  ).problem;
  return { posed, held };
}

/** What the inner fits share: settings, engine, cancellation, progress and the folds. */
interface InnerContext {
  settings: FitSettings;
  override: PriorOverride;
  engine: EngineHandle;
  signal?: AbortSignal;
  onStep?: (s: OptimStep) => void;
  /** Fold k's problem and engines (`foldSlots`). */
  fold: (k: number) => Promise<FoldSlot>;
}

/**
 * One fold's problem, an engine on its training cells and one on its held-out
 * cells, and the priors the problem was posed with (`runFold` restores them).
 */
interface FoldSlot {
  f: Fold;
  eng: Engine;
  heldEngine: Engine;
  priors: Posed['P']['priors'];
}

/**
 * Each fold's problem and engines, made on first use and kept for the whole
 * search: the grid, its extensions and the refined λ all fit the same folds,
 * and each used to pose them and start an engine (shard workers) again (20
 * engines at the full shape, 4 s of its 20 s search). `dispose` frees them.
 */
function foldSlots(data: Dataset, folds: FoldSpec[], settings: FitSettings, engine: EngineHandle) {
  const slots = new Map<number, Promise<FoldSlot>>();
  const make = async (k: number): Promise<FoldSlot> => {
    const f = foldProblem(data, folds[k], settings);
    const eng = await engine.create(f.posed.problem);
    return { f, eng, heldEngine: createFusedEngine(f.held), priors: f.posed.P.priors };
  };
  return {
    get(k: number): Promise<FoldSlot> {
      if (!slots.has(k)) slots.set(k, make(k));
      return slots.get(k)!;
    },
    async dispose() {
      for (const s of slots.values()) {
        const slot = await s.catch(() => null);
        slot?.eng.dispose();
        slot?.heldEngine.dispose();
      }
      slots.clear();
    },
  };
}

/** One fold's inner fits at each λ: summed held-out cross-entropy and end points. */
interface FoldRun {
  loss: number[];
  x: Float64Array[];
  converged: boolean[];
  passes: number;
}

/**
 * Fit fold `f` at each λ in turn, each fit from `starts[m]` (null: the end
 * point of the previous λ; the first from the documented start with the
 * warm-up when it has none), and score the held-out cells' total cross-entropy.
 */
async function runFold(
  { f, eng, heldEngine, priors }: FoldSlot,
  lambdas: readonly number[],
  starts: readonly (Float64Array | null)[],
  ctx: InnerContext,
): Promise<FoldRun> {
  const { posed } = f;
  const { settings } = ctx;
  const out: FoldRun = { loss: [], x: [], converged: [], passes: 0 };
  // The priors as posed: the exact blocks' LLM part takes its prior curvature
  // from them when made (exactBlocks.ts), so each fold's runs stay the same
  // arithmetic as when every run posed its fold afresh.
  posed.P.priors = priors;
  const obj = makeObjective(posed, eng);
  // Exact blocks from one sweep where they apply (the final fit's probed
  // ones otherwise), once per fit: the same λ to a grid step on the demos at
  // a third of the passes (reading 4,632 → 1,326; docs/priors.md). Refilled
  // every 30 steps the search took 30–45% fewer passes, but its capped fits
  // then followed the engine's round-off (docs/optimiser.md).
  const curvature = curvatureFor(posed, obj.f, {
    kind: settings.curvature ?? 'exact',
    every: INNER_MAX_STEPS,
    engine: eng,
  });
  let x = posed.x0;
  for (let m = 0; m < lambdas.length; m++) {
    posed.P.priors = specsAt(posed.P.groups, lambdas[m], ctx.override);
    const cold = m === 0 && !starts[m];
    const res = await fastFit(obj.f, starts[m] ?? x, {
      settings: { ...settings, steps: Math.min(settings.steps, INNER_MAX_STEPS) },
      warm: cold ? (settings.warmup ?? FAST_WARMUP) : 0,
      precond: countPreconditioner(posed),
      loose: true,
      coarse: mixedPrecision(settings),
      curvature,
      signal: ctx.signal,
      onStep: ctx.onStep,
    });
    out.passes += res.passes;
    x = res.x;
    posed.P.toNatural(x, obj.nat);
    out.loss.push(await heldEngine.evaluate(obj.nat, null));
    out.x.push(Float64Array.from(x));
    out.converged.push(res.converged);
  }
  return out;
}

/**
 * The minimum of the parabola in log λ through the best grid point and its two
 * neighbours (the best point itself at either end of the grid), on a grid of
 * STRENGTH_STEPS steps per doubling (to three significant digits): between
 * grid points where the curve is flat, and the same λ whatever the last bits
 * of the losses.
 */
export function refineStrength(grid: readonly number[], loss: readonly number[]): number {
  const v = strengthVertex(grid, loss);
  if (v.end >= 0) return withinLimits(grid[v.end]);
  const steps = Math.round((STRENGTH_STEPS * v.u) / Math.LN2);
  return Number((2 ** (steps / STRENGTH_STEPS)).toPrecision(3));
}

/**
 * log λ at the minimum of the parabola through the best grid point and its
 * neighbours, kept between them and within STRENGTH_LIMITS, unrounded (`best`: the best point's index;
 * `end`: the same where it is at an end of the grid, and u its log; else −1).
 */
export function strengthVertex(
  grid: readonly number[],
  loss: readonly number[],
): { u: number; best: number; end: number } {
  let b = 0;
  for (let m = 1; m < loss.length; m++) if (loss[m] < loss[b]) b = m;
  if (b === 0 || b === grid.length - 1)
    return { u: Math.log(withinLimits(grid[b])), best: b, end: b };
  const u = vertexThrough(grid, loss, b);
  const kept = Math.min(Math.log(grid[b + 1]), Math.max(Math.log(grid[b - 1]), u));
  return { u: Math.log(withinLimits(Math.exp(kept))), best: b, end: -1 };
}

/**
 * log λ at the vertex of the parabola in log λ through candidates b − 1, b
 * and b + 1 (unevenly spaced allowed), unclamped; log λ_b where the parabola
 * is not convex.
 */
export function vertexThrough(grid: readonly number[], loss: readonly number[], b: number): number {
  const [u0, u1, u2] = [grid[b - 1], grid[b], grid[b + 1]].map(Math.log);
  const [l0, l1, l2] = [loss[b - 1], loss[b], loss[b + 1]];
  const num = (u1 - u0) ** 2 * (l1 - l2) - (u1 - u2) ** 2 * (l1 - l0);
  // den = −(u1 − u0)(u2 − u1)(u2 − u0) × the parabola's curvature: negative where convex.
  const den = (u1 - u0) * (l1 - l2) - (u1 - u2) * (l1 - l0);
  return den < 0 ? u1 - num / (2 * den) : u1;
}

/** Mean of the folds' free vectors (a start for the full fit). */
function meanOf(xs: readonly Float64Array[]): Float64Array {
  const out = new Float64Array(xs[0].length);
  for (const x of xs) for (let q = 0; q < x.length; q++) out[q] += x[q] / xs.length;
  return out;
}

/**
 * Choose the prior strength λ (σ_g = λ · r_g for every group the user did not
 * fix) by CV_FOLDS-fold cross-validation on the training cells only: the folds
 * (cellFolds.ts) depend on the cells' content and `settings.seed`, never on
 * names or order. Each fold is fitted at every λ in STRENGTH_GRID (fold 0
 * strongest first, each warm-started from the last; every other fold from the
 * previous fold's end point at the same λ), its held-out cells scored by the
 * model's own cross-entropy, summed over folds. λ is the minimum of the
 * parabola in log λ through the best grid point and its neighbours
 * (`refineStrength`; the grid extended first while its best point is at an
 * end, `extendGrid`), where every fold is fitted once more. The outer data a
 * caller holds back never enter. docs/priors.md says why and how stable it is.
 */
export async function choosePriorStrength(
  ds: Dataset,
  settings: FitSettings,
  engine: EngineHandle,
  o: {
    signal?: AbortSignal;
    onStep?: (s: OptimStep) => void;
    maxCells?: number;
    /** The full problem, to spread a share's end point over (see `x`). */
    full?: Posed;
  } = {},
): Promise<StrengthChoice> {
  const override: PriorOverride = settings.prior ?? {};
  let n = 0;
  for (let c = 0; c < ds.J * ds.I; c++) n += ds.observed[c];
  const kept = searchItems(ds, n, settings.seed, o.maxCells);
  const { data, llms, items } = canonicalOrder(ds, kept);
  const groups = pose(data, settings).P.groups;
  if (groups.every((G) => override[G.group] !== undefined || !followsStrength(G)))
    return noSearch('every group that follows λ fixed by the user');
  if (n < MIN_CELLS_TO_CHOOSE)
    return noSearch(
      `${n} cells are too few to cross-validate on (need ${MIN_CELLS_TO_CHOOSE}); λ = 1`,
    );
  const folds = foldSpecs(data, settings.seed);
  const draws = folds.length / CV_FOLDS;
  const slots = foldSlots(data, folds, settings, engine);
  const ctx: InnerContext = {
    settings,
    override,
    engine,
    signal: o.signal,
    onStep: o.onStep,
    fold: (k) => slots.get(k),
  };
  const { grid, lambda, onGrid, last } = await searchAll(folds, ctx).finally(() => slots.dispose());
  const trials = [...grid.trials, ...(last ? [last.trial] : [])];
  const ends = last ? last.x : grid.runs.map((r) => r.x[onGrid]);
  const full = o.full ?? (kept ? null : pose(ds, settings));
  const spread = (x: Float64Array) =>
    full ? spreadShare(x, last?.posed ?? grid.posed, items, full, llms) : null;
  const start = spread(meanOf(ends));
  return {
    lambda,
    trials,
    x: start,
    share: kept !== null,
    passes: grid.passes + (last?.passes ?? 0),
    folds: {
      lambdas: [...grid.lambdas],
      loss: grid.lambdas.map((_, m) => grid.runs.map((r) => r.loss[m])),
      held: grid.held,
      draws,
    },
    reason: strengthReason(
      lambda,
      grid.lambdas,
      onGrid < 0,
      kept,
      ds.I,
      n,
      o.maxCells,
      start !== null,
      draws,
    ),
  };
}

/** The candidates searched so far, each fold's run at each (λ ascending). */
interface Grid {
  lambdas: number[];
  runs: FoldRun[];
  /** Held-out cross-entropy per cell, summed over folds, per λ. */
  loss: number[];
  trials: StrengthTrial[];
  passes: number;
  /** Fold 0's problem (the layout of every fold's free vector). */
  posed: Posed;
  /** Held-out cells per fold. */
  held: number[];
}

/** STRENGTH_GRID's candidates, run fold by fold; losses per cell summed over folds. */
async function searchGrid(folds: FoldSpec[], ctx: InnerContext): Promise<Grid> {
  const runs: FoldRun[] = [];
  let posed: Posed | null = null;
  const held: number[] = [];
  for (let k = 0; k < folds.length; k++) {
    const slot = await ctx.fold(k);
    posed ??= slot.f.posed;
    held.push(slot.f.held.cells.n);
    const starts = STRENGTH_GRID.map((_, m) => (k === 0 ? null : runs[k - 1].x[m]));
    runs.push(await runFold(slot, STRENGTH_GRID, starts, ctx));
  }
  const nHeld = held.reduce((s, n) => s + n, 0);
  const loss = STRENGTH_GRID.map((_, m) => runs.reduce((s, r) => s + r.loss[m], 0) / nHeld);
  const trials: StrengthTrial[] = STRENGTH_GRID.map((lambda, m) => ({
    lambda,
    heldOutLoss: loss[m],
    converged: runs.every((r) => r.converged[m]),
  }));
  const passes = runs.reduce((s, r) => s + r.passes, 0);
  return { lambdas: [...STRENGTH_GRID], runs, loss, trials, passes, posed: posed!, held };
}

/**
 * Steps per doubling of λ the refined choice is rounded to (4.4% apart). The
 * same cells read from probabilities and from log-probabilities differ in the
 * last float32 bits, which moved an unrounded λ by 0.1% where the curve is
 * flat (a simulated set, λ ≈ 8); θ moves far less than its SE over one step.
 */
export const STRENGTH_STEPS = 16;

/**
 * The range of the chosen λ. The grid is extended by factors of 2 while its
 * best point is at an end, to one candidate beyond these ends at most (1/16,
 * 32), which serves only as the best point's neighbour: the choice is kept
 * within the range. Above 16 the priors of δ and ρ are too weak to recover
 * the gate: on the open-gate simulation with eq. 10's truth (bench/gate.ts)
 * the chosen λ ran to 64 and ρ's Spearman fell from 0.926 (at 16) to 0.847.
 * The neighbour beyond is what steadies the choice: before, the extension
 * stopped at 16 itself, and on the pooled demo fold seed 7 of ten (held-out
 * 0.33786 at 8, 0.33775 at 16) took the end, λ 16; with 32 evaluated
 * (0.33894) its vertex is 11.8, and the worst θ shift over the ten seeds fell
 * from 0.337 to 0.269 SE (Llama-3.2-1B; bench/stability.ts).
 */
export const STRENGTH_LIMITS = [1 / 8, 16] as const;

/** λ kept within STRENGTH_LIMITS. */
function withinLimits(lambda: number): number {
  return Math.min(STRENGTH_LIMITS[1], Math.max(STRENGTH_LIMITS[0], lambda));
}

/**
 * While the best candidate is at an end of the grid, one more candidate
 * beyond it (λ halved or doubled, to one beyond STRENGTH_LIMITS), so the parabola
 * always has the best point between two neighbours: without it a curve flat
 * between 2 and 4 jumped from a vertex below 2.83 to the end, 4, as the
 * losses at 2 and 4 swapped order (reading demo, one seed in ten).
 */
async function extendGrid(g: Grid, folds: FoldSpec[], ctx: InnerContext) {
  for (;;) {
    let b = 0;
    g.loss.forEach((l, m) => (l < g.loss[b] ? (b = m) : 0));
    const low = b === 0;
    if (!low && b !== g.lambdas.length - 1) return;
    const lambda = g.lambdas[b] * (low ? 0.5 : 2);
    if (lambda < STRENGTH_LIMITS[0] / 2 || lambda > STRENGTH_LIMITS[1] * 2) return;
    // The best point is already a neighbour beyond the range: no further.
    if (g.lambdas[b] < STRENGTH_LIMITS[0] || g.lambdas[b] > STRENGTH_LIMITS[1]) return;
    const r = await oneMore(folds, lambda, g.runs, b, ctx);
    const at = low ? 0 : g.lambdas.length;
    g.lambdas.splice(at, 0, lambda);
    g.loss.splice(at, 0, r.trial.heldOutLoss);
    g.trials.splice(at, 0, r.trial);
    g.runs.forEach((run, k) => {
      run.x.splice(at, 0, r.x[k]);
      run.loss.splice(at, 0, r.loss[k]);
    });
    g.passes += r.passes;
  }
}

/** Index of the candidate nearest λ in log. */
function nearest(lambdas: readonly number[], lambda: number): number {
  let near = 0;
  lambdas.forEach((l, m) => {
    if (Math.abs(Math.log(l / lambda)) < Math.abs(Math.log(lambdas[near] / lambda))) near = m;
  });
  return near;
}

/** Every fold once more at λ, each from its end point at candidate `from`. */
async function oneMore(
  folds: FoldSpec[],
  lambda: number,
  runs: readonly FoldRun[],
  from: number,
  ctx: InnerContext,
) {
  let loss = 0;
  let nHeld = 0;
  let passes = 0;
  let converged = true;
  let posed: Posed | null = null;
  const x: Float64Array[] = [];
  const perFold: number[] = [];
  for (let k = 0; k < folds.length; k++) {
    const slot = await ctx.fold(k);
    posed ??= slot.f.posed;
    const r = await runFold(slot, [lambda], [runs[k].x[from]], ctx);
    loss += r.loss[0];
    perFold.push(r.loss[0]);
    nHeld += slot.f.held.cells.n;
    passes += r.passes;
    converged &&= r.converged[0];
    x.push(r.x[0]);
  }
  const trial: StrengthTrial = { lambda, heldOutLoss: loss / nHeld, converged };
  return { trial, x, loss: perFold, passes, posed: posed! };
}

/** The grid, its extensions while the best is at an end, and the refined λ (fitted where off the grid). */
async function searchAll(folds: FoldSpec[], ctx: InnerContext) {
  const grid = await searchGrid(folds, ctx);
  await extendGrid(grid, folds, ctx);
  const lambda = refineStrength(grid.lambdas, grid.loss);
  const onGrid = grid.lambdas.indexOf(lambda);
  const last =
    onGrid >= 0
      ? null
      : await oneMore(folds, lambda, grid.runs, nearest(grid.lambdas, lambda), ctx);
  return { grid, lambda, onGrid, last };
}

/** fit.json's words for how λ was chosen. */
function strengthReason(
  lambda: number,
  grid: readonly number[],
  refined: boolean,
  kept: number[] | null,
  I: number,
  n: number,
  maxCells: number | undefined,
  started: boolean,
  draws: number,
): string {
  const how =
    `${CV_FOLDS}-fold cross-validation on the training cells, ${draws} draw${draws === 1 ? '' : 's'} of the folds (every cell held out once in each; ` +
    `folds dealt within each item by the LLMs' accuracy from an offset drawn from the seed and the item's content, never by names or order)` +
    (refined
      ? `; λ = ${lambda} is the minimum of the parabola in log λ through the best of ${grid.join(', ')} and its neighbours`
      : `; λ = ${lambda} is the best of ${grid.join(', ')}`);
  if (!kept) return how;
  return (
    `${how}; on ${kept.length} of the ${I} items (a share chosen by the items' content: ` +
    `the data set has ${n} cells, above ${maxCells ?? SEARCH_MAX_CELLS})` +
    (started ? '; the final fit starts from its end point' : '')
  );
}
