import { hideCells } from '../data/hide';
import { itemHash } from '../data/sample';
import { subsetDataset } from '../data/subset';
import type { Dataset } from '../data/types';
import { createFusedEngine } from '../engines/fused';
import { specsAt, STRENGTH_GRID, type PriorOverride } from '../model/hprior';
import { fastFit, FAST_WARMUP, mixedPrecision } from './fast';
import type { OptimStep } from './optim';
import { makeObjective, pose, type Posed } from './pose';
import type { NominalFreeLayout } from '../model/params';
import { countPreconditioner } from './precond';
import type { FitSettings, StrengthTrial } from './types';
import type { EngineHandle } from './fit';
import { blockCurvature } from './blocks';

/** Below this many observed cells the split is too small to choose on: λ = 1. */
export const MIN_CELLS_TO_CHOOSE = 400;
/**
 * Step cap of each inner fit of the search. The held-out loss needs a few
 * digits, not a converged optimum; where the gate drifts (large simulated
 * sets) uncapped inner fits ran to the full cap, four times over.
 */
export const INNER_MAX_STEPS = 200;
/**
 * Above this many observed cells the search runs on a hashed share of the
 * items holding about this many cells. Every item keeps all its LLMs, so each
 * item's own evidence (what the item priors weigh against) is as in the full
 * set; the search costs at most about 4 × INNER_MAX_STEPS passes over this
 * many cells however large the data set (at the paper's 6 M cells, ~3% of a
 * full search).
 */
export const SEARCH_MAX_CELLS = 200_000;
/** Share of the training cells held out to choose the prior strength. */
export const HOLDOUT_SHARE = 0.25;

export interface StrengthChoice {
  lambda: number;
  trials: StrengthTrial[];
  /**
   * Free vector of the inner fit at the chosen λ: a warm start for the full
   * fit. When the search ran on a share of the items, a start for the full
   * problem built by `spreadShare` (null where it cannot be: binary models).
   */
  x: Float64Array | null;
  /** True when the search ran on a share of the items. */
  share: boolean;
  passes: number;
  reason: string;
}

/** FNV-1a of `text` continued from state `h` (0x811c9dc5 to start). */
function fnv(h: number, text: string): number {
  for (let q = 0; q < text.length; q++) {
    h ^= text.charCodeAt(q);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * A seeded HOLDOUT_SHARE of the observed cells (j·I + i), chosen by a hash of
 * the LLM and item ids rather than their positions, so that the same cells in
 * any order or file format hold out the same cells (and give the same fit).
 * The hash of `${seed}\0${llm}\0${item}` in [0, 1); its LLM part is hashed
 * once per LLM and continued per item (the same value, far fewer strings).
 */
function holdoutMask(ds: Dataset, seed: number): Uint8Array {
  const mask = new Uint8Array(ds.J * ds.I);
  for (let j = 0; j < ds.J; j++) {
    const h = fnv(0x811c9dc5, `${seed}\u0000${ds.llmIds[j]}\u0000`);
    for (let i = 0; i < ds.I; i++) {
      const c = j * ds.I + i;
      if (ds.observed[c]) mask[c] = fnv(h, ds.itemIds[i]) / 2 ** 32 < HOLDOUT_SHARE ? 1 : 0;
    }
  }
  return mask;
}

/**
 * The items the search runs on: all of them up to `maxCells` observed cells,
 * else those whose seeded hash of the item id falls below maxCells / n (the
 * same items in any order or file format). `null` when all are kept.
 */
export function searchItems(
  ds: Dataset,
  n: number,
  seed: number,
  maxCells = SEARCH_MAX_CELLS,
): number[] | null {
  if (n <= maxCells) return null;
  const share = maxCells / n;
  const keep: number[] = [];
  for (let i = 0; i < ds.I; i++) if (itemHash(ds.itemIds[i], seed) < share) keep.push(i);
  return keep;
}

/** The choice when there is nothing to search: λ = 1, and why. */
function noSearch(reason: string): StrengthChoice {
  return { lambda: 1, trials: [], x: null, share: false, passes: 0, reason };
}

/**
 * Choose the prior strength λ (σ_g = λ · r_g for every group the user did not
 * fix) by held-out likelihood on the training cells only: fit on 75% of the
 * observed cells at each λ in STRENGTH_GRID (strongest first, each warm-started
 * from the last), score the model's own cross-entropy on the other 25%, keep
 * the best. The outer data a caller holds back never enter. docs/priors.md
 * compares this with empirical Bayes on real data.
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
  const data = kept ? subsetDataset(ds, undefined, kept) : ds;
  const mask = holdoutMask(data, settings.seed);
  // Each split copy of the data set lives only while its problem is posed, so
  // the search does not hold two more copies of a large data set throughout.
  const posed = pose(
    hideCells(data, (c) => mask[c] === 1),
    settings,
  );
  if (posed.P.groups.every((G) => override[G.group] !== undefined))
    return noSearch('every group fixed by the user');
  if (n < MIN_CELLS_TO_CHOOSE)
    return noSearch(
      `${n} cells are too few to hold out a quarter (need ${MIN_CELLS_TO_CHOOSE}); λ = 1`,
    );
  const heldProblem = pose(
    hideCells(data, (c) => mask[c] === 0),
    settings,
  ).problem;
  const heldEngine = createFusedEngine(heldProblem);
  const eng = await engine.create(posed.problem);
  const trials: StrengthTrial[] = [];
  let best: { lambda: number; x: Float64Array; loss: number } | null = null;
  let x = posed.x0;
  let passes = 0;
  try {
    const obj = makeObjective(posed, eng);
    const precond = countPreconditioner(posed);
    // Probed once per candidate: real data need fewer search passes (docs/optimiser.md).
    const curvature = blockCurvature(posed, obj.f, {
      kind: settings.curvature,
      every: INNER_MAX_STEPS,
    });
    for (const lambda of STRENGTH_GRID) {
      posed.P.priors = specsAt(posed.P.groups, lambda, override);
      const res = await fastFit(obj.f, x, {
        settings: { ...settings, steps: Math.min(settings.steps, INNER_MAX_STEPS) },
        warm: trials.length === 0 ? (settings.warmup ?? FAST_WARMUP) : 0,
        precond,
        loose: true,
        coarse: mixedPrecision(settings),
        curvature,
        signal: o.signal,
        onStep: o.onStep,
      });
      passes += res.passes;
      x = res.x;
      posed.P.toNatural(x, obj.nat);
      const loss = (await heldEngine.evaluate(obj.nat, null)) / Math.max(1, heldProblem.cells.n);
      trials.push({ lambda, heldOutLoss: loss, converged: res.converged });
      if (!best || loss < best.loss) best = { lambda, x: Float64Array.from(x), loss };
    }
  } finally {
    eng.dispose();
    heldEngine.dispose();
  }
  const on = `${Math.round(HOLDOUT_SHARE * 100)}% of the training cells`;
  const start = kept ? (o.full ? spreadShare(best!.x, posed, kept, o.full) : null) : best!.x;
  return {
    lambda: best!.lambda,
    trials,
    x: start,
    share: kept !== null,
    passes,
    reason: kept
      ? `held-out cross-entropy on ${on} of ${kept.length} of the ${ds.I} items (a hashed share: the data set has ${n} cells, above ${o.maxCells ?? SEARCH_MAX_CELLS})${start ? '; the final fit starts from its end point' : ''}`
      : `held-out cross-entropy on ${on}`,
  };
}

/**
 * A start for the full problem from the search's end point on a share of the
 * items: the LLM parameters (θ, s, δ, ρ) and the gate (w0, κ) as the share
 * left them, the searched items' slopes and intercepts too; every other item
 * keeps the documented start (`full.x0`). Nominal models only (null otherwise).
 */
export function spreadShare(
  x: Float64Array,
  share: Posed,
  kept: readonly number[],
  full: Posed,
): Float64Array | null {
  if (share.problem.kind !== 'nominal' || full.problem.kind !== 'nominal') return null;
  const S = (share.P as unknown as { free: NominalFreeLayout }).free;
  const F = (full.P as unknown as { free: NominalFreeLayout }).free;
  const ks = share.problem.layout.Kmax;
  const kf = full.problem.layout.Kmax;
  const J = full.problem.layout.J;
  const out = Float64Array.from(full.x0);
  const copy = (from: number, to: number, n: number) => out.set(x.subarray(from, from + n), to);
  const k = Math.min(ks, kf);
  for (let j = 0; j < J; j++) {
    out[F.theta + j] = x[S.theta + j];
    if (F.delta > F.sBar) out[F.sBar + j] = x[S.sBar + j];
    if (F.rho > F.delta) copy(S.delta + j * ks, F.delta + j * kf, k);
    if (F.a > F.rho) copy(S.rho + j * ks, F.rho + j * kf, k);
  }
  kept.forEach((i, b) => {
    const K = full.problem.cells.nOptions[i];
    copy(S.a + b * ks, F.a + i * kf, K);
    copy(S.c + b * ks, F.c + i * kf, K);
  });
  for (let q = F.w0; q < F.size; q++) out[q] = x[S.w0 + (q - F.w0)];
  return out;
}
