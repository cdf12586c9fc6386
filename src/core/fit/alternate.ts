/**
 * The alternating solver (issue 28): given the LLM parameters (θ, log s, δ,
 * ρ) and the gate (w0, κ̄), every item's (a, c) is an independent small
 * problem; given the items, every LLM's is. So a sweep takes one damped
 * Newton step for every item at once (each with its own Gauss–Newton block
 * from sweep.ts, its own prior, its own backtracking on its own objective),
 * then one for every LLM and the gate (a block-diagonal Newton direction with
 * one backtracking on the whole objective). A few sweeps from the start and
 * the joint L-BFGS (fast.ts) polishes to the usual gradient test, so what
 * "converged" means does not change. The default mode only (θ standardised,
 * group priors) with the margin gate or none (`alternates`).
 */
import { yielder } from './optim/types';
import type { NominalPosed, Posed } from './pose';
import {
  createSweeper,
  indexCells,
  itemBlockOffsets,
  llmBlockSize,
  sweepable,
  type CellIndex,
} from '../engines/sweep';
import { MARGIN_KAPPA_SD } from '../model/gate';
import type { PriorSpec } from '../model/hprior';

/** Whether the alternating solver handles this problem (else the joint path runs alone). */
export function alternates(posed: Posed): posed is NominalPosed {
  return (
    posed.kind === 'nominal' &&
    sweepable(posed.problem.flags) &&
    posed.P.groups.length > 0 &&
    posed.problem.layout.J >= 2
  );
}

/** Sweeps (items, then LLMs) before the joint polish, at most. */
export const ALTERNATE_SWEEPS = 10;
/** The sweeps stop early once one lowers the objective by less than this, relative. */
export const ALTERNATE_TOL = 1e-6;
/** No block's Newton step moves any of its members by more than this (a trust region). */
const STEP_CAP = 2;
/** Armijo's sufficient decrease. */
const ARMIJO = 1e-4;
/** Halvings of a step before it is given up. */
const HALVINGS = 12;

export interface AlternateOptions {
  maxSweeps?: number;
  tol?: number;
  signal?: AbortSignal;
  /** After each sweep: the sweep, the objective and the passes so far. */
  onSweep?: (s: { sweep: number; value: number; passes: number; x: Float64Array }) => void;
}

export interface AlternateResult {
  x: Float64Array;
  value: number;
  sweeps: number;
  /** Passes over the cells, a partial pass (some items' line search) counted by its share of cells. */
  passes: number;
}

/** What the item and LLM steps share: the problem, the sweeper, scratch and the objective. */
function context(posed: NominalPosed) {
  const { P } = posed;
  const { layout: L, flags, cells } = posed.problem;
  const { J, I, Kmax } = L;
  const nL = llmBlockSize(Kmax);
  const nat = new Float64Array(P.natSize);
  const gNat = new Float64Array(P.natSize);
  const gFree = new Float64Array(P.size);
  const sw = createSweeper(L, flags, cells);
  const ctx = {
    P,
    L,
    flags,
    cells,
    F: P.free,
    J,
    I,
    Kmax,
    nL,
    sw,
    nat,
    gNat,
    gFree,
    A: new Float64Array(Math.max(nL, 2 * Kmax) ** 2),
    rhs: new Float64Array(Math.max(nL, 2 * Kmax)),
    sol: new Float64Array(Math.max(nL, 2 * Kmax)),
    spec: (g: 'a' | 'c' | 'logS' | 'delta' | 'rho'): PriorSpec | undefined => P.priors[g],
    /** The objective at x (float64, this file's own pass), and its free gradient when asked. */
    value(x: Float64Array, withGrad: boolean): number {
      P.toNatural(x, nat);
      const ce = sw.sweep(nat, { grad: withGrad ? gNat : null });
      if (!withGrad) gNat.fill(0);
      const { prior, penalty } = P.pullback(x, nat, gNat, withGrad ? gFree : null);
      return ce + prior + penalty;
    },
  };
  return ctx;
}

type Context = ReturnType<typeof context>;

/** The solver's steps on one posed problem. */
export function alternator(posed: NominalPosed) {
  const ctx = context(posed);
  return { value: ctx.value, itemStep: itemStepper(ctx), llmStep: llmStepper(ctx) };
}

/** One damped Newton step for every item (itemStepper's step). */
function itemStepper(ctx: Context) {
  const { P, L, cells, F, I, Kmax, sw, nat, gNat, gFree, A, rhs, sol, spec } = ctx;
  const index: CellIndex = indexCells(cells.cellI, I);
  const natT = new Float64Array(P.natSize);
  const itemCE = new Float64Array(I);
  const ceT = new Float64Array(I);
  const itemOff = itemBlockOffsets(cells.nOptions);
  const item = new Float64Array(itemOff[I]);

  /** Item i's own prior at natural vector v. */
  function itemPrior(v: Float64Array, i: number): number {
    const sa = spec('a');
    const sc = spec('c');
    let s = 0;
    for (let k = 0; k < cells.nOptions[i]; k++) {
      if (sa) s += (v[L.a + i * Kmax + k] - sa.mean) ** 2 / (2 * sa.sd * sa.sd);
      if (sc) s += (v[L.c + i * Kmax + k] - sc.mean) ** 2 / (2 * sc.sd * sc.sd);
    }
    return s;
  }

  /** Item i's damped Newton direction into sol (2K: a then c); returns gᵀΔ. */
  function itemDirection(i: number): number {
    const K = cells.nOptions[i];
    const n = 2 * K;
    const o = itemOff[i];
    for (let q = 0; q < n * n; q++) A[q] = item[o + q];
    const sa = spec('a');
    const sc = spec('c');
    for (let k = 0; k < K; k++) {
      A[k * n + k] += sa ? 1 / (sa.sd * sa.sd) : 0;
      A[(K + k) * n + K + k] += sc ? 1 / (sc.sd * sc.sd) : 0;
      rhs[k] = -gFree[F.a + i * Kmax + k];
      rhs[K + k] = -gFree[F.c + i * Kmax + k];
    }
    addNull(A, n, 0, K);
    addNull(A, n, K, K);
    return solveCapped(A, n, rhs, sol);
  }

  /**
   * One damped Newton step for every item, the LLMs and the gate fixed. Each
   * item backtracks on its own objective (its cells and its prior), visiting
   * only the cells of the items still backtracking.
   */
  function itemStep(x: Float64Array): { value: number; passes: number } {
    P.toNatural(x, nat);
    const ce = sw.sweep(nat, { grad: gNat, itemCE, blocks: { item, itemOff } });
    const { prior, penalty } = P.pullback(x, nat, gNat, gFree);
    natT.set(nat);
    const dirs = new Float64Array(I * 2 * Kmax);
    const dec = new Float64Array(I);
    const base = new Float64Array(I);
    let active: number[] = [];
    for (let i = 0; i < I; i++) {
      dec[i] = itemDirection(i);
      dirs.set(sol.subarray(0, 2 * cells.nOptions[i]), i * 2 * Kmax);
      base[i] = itemCE[i] + itemPrior(nat, i);
      if (dec[i] < -1e-12 * (1 + Math.abs(base[i]))) active.push(i);
    }
    let t = 1;
    let visited = 0;
    for (let h = 0; h <= HALVINGS && active.length > 0; h++, t /= 2) {
      for (const i of active) moveItem(i, t, dirs);
      sw.sweep(natT, { grad: null, itemCE: ceT }, { ids: active, index });
      for (const i of active) visited += index.start[i + 1] - index.start[i];
      const next: number[] = [];
      for (const i of active)
        if (ceT[i] + itemPrior(natT, i) > base[i] + ARMIJO * t * dec[i]) next.push(i);
      active = next;
    }
    for (const i of active) moveItem(i, 0, dirs);
    for (let i = 0; i < I; i++)
      for (let k = 0; k < cells.nOptions[i]; k++) {
        x[F.a + i * Kmax + k] = natT[L.a + i * Kmax + k];
        x[F.c + i * Kmax + k] = natT[L.c + i * Kmax + k];
      }
    return { value: ce + prior + penalty, passes: 1 + visited / Math.max(1, cells.n) };
  }

  /** natT's item i at nat + t·Δ_i. */
  function moveItem(i: number, t: number, dirs: Float64Array): void {
    const K = cells.nOptions[i];
    for (let k = 0; k < K; k++) {
      natT[L.a + i * Kmax + k] = nat[L.a + i * Kmax + k] + t * dirs[i * 2 * Kmax + k];
      natT[L.c + i * Kmax + k] = nat[L.c + i * Kmax + k] + t * dirs[i * 2 * Kmax + K + k];
    }
  }

  return itemStep;
}

/** One Newton step for the LLMs and the gate (llmStepper's step). */
function llmStepper(ctx: Context) {
  const { P, L, flags, F, J, Kmax, nL, sw, nat, gNat, gFree, A, rhs, sol, spec } = ctx;
  const llm = new Float64Array(J * nL * nL);
  const gate = new Float64Array(4);

  /** The free LLM coordinates set to their natural values (θ standardised, log s, δ, ρ centred): the same point. */
  function resetLlms(x: Float64Array): void {
    P.toNatural(x, nat);
    for (let j = 0; j < J; j++) {
      x[F.theta + j] = nat[L.theta + j];
      if (F.delta > F.sBar) x[F.sBar + j] = Math.log(nat[L.s + j]);
      for (let k = 0; k < Kmax; k++) {
        if (F.rho > F.delta) x[F.delta + j * Kmax + k] = nat[L.delta + j * Kmax + k];
        if (F.a > F.rho) x[F.rho + j * Kmax + k] = nat[L.rho + j * Kmax + k];
      }
    }
  }

  /** LLM j's Newton direction into d (free coordinates); returns gᵀΔ. */
  function llmDirection(j: number, d: Float64Array): number {
    const n = nL;
    for (let q = 0; q < n * n; q++) A[q] = llm[j * n * n + q];
    const slot = (m: number) =>
      m === 0
        ? F.theta + j
        : m === 1
          ? F.delta > F.sBar
            ? F.sBar + j
            : -1
          : m < 2 + Kmax
            ? F.rho > F.delta
              ? F.delta + j * Kmax + m - 2
              : -1
            : F.a > F.rho
              ? F.rho + j * Kmax + m - 2 - Kmax
              : -1;
    const prec = (m: number) => {
      const sp = m === 1 ? spec('logS') : m < 2 ? undefined : spec(m < 2 + Kmax ? 'delta' : 'rho');
      return sp ? 1 / (sp.sd * sp.sd) : 0;
    };
    for (let m = 0; m < n; m++) {
      const s = slot(m);
      if (s < 0) {
        for (let c = 0; c < n; c++) A[m * n + c] = A[c * n + m] = 0;
        A[m * n + m] = 1;
        rhs[m] = 0;
      } else {
        A[m * n + m] += prec(m);
        rhs[m] = -gFree[s];
      }
    }
    if (F.rho > F.delta) addNull(A, n, 2, Kmax);
    if (F.a > F.rho) addNull(A, n, 2 + Kmax, Kmax);
    const dec = solveCapped(A, n, rhs, sol);
    for (let m = 0; m < n; m++) if (slot(m) >= 0) d[slot(m)] = sol[m];
    return dec;
  }

  /** The gate's Newton direction (w0, κ̄) into d; returns gᵀΔ. */
  function gateDirection(d: Float64Array): number {
    if (F.size <= F.w0) return 0;
    const sk = -Math.expm1(-nat[L.kappa]);
    A[0] = gate[0];
    A[1] = A[2] = gate[1];
    A[3] = gate[3] + (flags.gate === 'margin' ? (sk * sk) / MARGIN_KAPPA_SD ** 2 : 0);
    rhs[0] = -gFree[F.w0];
    rhs[1] = -gFree[F.kappaBar];
    const dec = solveCapped(A, 2, rhs, sol);
    d[F.w0] = sol[0];
    d[F.kappaBar] = sol[1];
    return dec;
  }

  /**
   * One Newton step for the LLMs and the gate, the items fixed: each LLM's
   * block and the gate's give the direction; one backtracking on the whole
   * objective (θ's standardising and the centrings couple the LLMs).
   */
  function llmStep(x: Float64Array): { value: number; passes: number } {
    resetLlms(x);
    P.toNatural(x, nat);
    const ce = sw.sweep(nat, { grad: gNat, blocks: { llm, gate } });
    const { prior, penalty } = P.pullback(x, nat, gNat, gFree);
    const base = ce + prior + penalty;
    const d = new Float64Array(x.length);
    let dec = 0;
    for (let j = 0; j < J; j++) dec += llmDirection(j, d);
    dec += gateDirection(d);
    let passes = 1;
    if (!(dec < 0)) return { value: base, passes };
    const xt = new Float64Array(x.length);
    for (let h = 0, t = 1; h <= HALVINGS; h++, t /= 2) {
      for (let q = 0; q < x.length; q++) xt[q] = x[q] + t * d[q];
      const v = ctx.value(xt, false);
      passes++;
      if (v <= base + ARMIJO * t * dec) {
        x.set(xt);
        return { value: v, passes };
      }
    }
    return { value: base, passes };
  }

  return llmStep;
}

/**
 * Alternate item and LLM steps from x0 until a sweep gains less than `tol`
 * (relative) or `maxSweeps` have run. x0 is not changed.
 */
export async function alternate(
  posed: NominalPosed,
  x0: Float64Array,
  o: AlternateOptions = {},
): Promise<AlternateResult> {
  const steps = alternator(posed);
  const x = Float64Array.from(x0);
  const checkpoint = yielder(o.signal);
  let value = steps.value(x, false);
  let passes = 1;
  const maxSweeps = o.maxSweeps ?? ALTERNATE_SWEEPS;
  let sweep = 0;
  while (sweep < maxSweeps) {
    await checkpoint();
    const a = steps.itemStep(x);
    await checkpoint();
    const b = steps.llmStep(x);
    passes += a.passes + b.passes;
    sweep++;
    const v = b.value;
    const gain = value - v;
    value = v;
    o.onSweep?.({ sweep, value, passes, x });
    if (gain < (o.tol ?? ALTERNATE_TOL) * Math.max(1, Math.abs(value))) break;
  }
  return { x, value, sweeps: sweep, passes: Math.ceil(passes) };
}

/** A += (max diagonal / m)·uuᵀ, u the ones over members [from, from + m): a centring's null direction. */
function addNull(A: Float64Array, n: number, from: number, m: number): void {
  let dmax = 0;
  for (let r = 0; r < n; r++) dmax = Math.max(dmax, A[r * n + r]);
  const w = (dmax || 1) / m;
  for (let r = from; r < from + m; r++) for (let c = from; c < from + m; c++) A[r * n + c] += w;
}

/**
 * Solves the symmetric positive (semi-)definite A x = b by Cholesky (A
 * destroyed), with a growing ridge where a pivot fails; the step is scaled to
 * at most STEP_CAP in each member. Returns −bᵀx (the directional derivative
 * gᵀx for b = −g).
 */
export function solveCapped(A: Float64Array, n: number, b: Float64Array, x: Float64Array): number {
  let dmax = 0;
  for (let r = 0; r < n; r++) dmax = Math.max(dmax, Math.abs(A[r * n + r]));
  const save = A.slice(0, n * n);
  for (let ridge = 0, tries = 0; tries < 20; tries++, ridge = ridge ? ridge * 10 : 1e-10 * dmax) {
    A.set(save);
    for (let r = 0; r < n; r++) A[r * n + r] += ridge;
    if (cholesky(A, n)) break;
    if (tries === 19) {
      for (let r = 0; r < n; r++) x[r] = b[r] / Math.max(dmax, 1);
      return capStep(x, b, n);
    }
  }
  for (let r = 0; r < n; r++) {
    let s = b[r];
    for (let c = 0; c < r; c++) s -= A[r * n + c] * x[c];
    x[r] = s / A[r * n + r];
  }
  for (let r = n - 1; r >= 0; r--) {
    let s = x[r];
    for (let c = r + 1; c < n; c++) s -= A[c * n + r] * x[c];
    x[r] = s / A[r * n + r];
  }
  return capStep(x, b, n);
}

function capStep(x: Float64Array, b: Float64Array, n: number): number {
  let big = 0;
  for (let r = 0; r < n; r++) big = Math.max(big, Math.abs(x[r]));
  const scale = big > STEP_CAP ? STEP_CAP / big : 1;
  let dec = 0;
  for (let r = 0; r < n; r++) {
    x[r] *= scale;
    dec -= b[r] * x[r];
  }
  return dec;
}

/** In-place lower Cholesky factor of the n × n A (row-major); false if not positive definite. */
function cholesky(A: Float64Array, n: number): boolean {
  for (let r = 0; r < n; r++) {
    for (let c = 0; c <= r; c++) {
      let s = A[r * n + c];
      for (let k = 0; k < c; k++) s -= A[r * n + k] * A[c * n + k];
      if (r === c) {
        if (!(s > 0)) return false;
        A[r * n + r] = Math.sqrt(s);
      } else A[r * n + c] = s / A[c * n + c];
    }
  }
  return true;
}
