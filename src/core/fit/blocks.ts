import { offsetsOf, widthOf, type BlockInverse, type BlockPlan } from './blockInverse';
import type { LbfgsOptions } from './optim/lbfgs';
import type { Objective } from './optim/types';
import type { Posed } from './pose';
import type { FitSettings } from './types';
import { floorInverse } from '../stats/eigen';
import { itemNulls } from '../engines/curvature';

/**
 * Block-diagonal curvature of the objective by probing, for L-BFGS's initial
 * inverse Hessian. Given the LLMs an item's parameters interact with no other
 * item's, and given the items an LLM's with no other LLM's (except through the
 * θ standardising and the centrings, which are global and weak), so the
 * Hessian is nearly block-diagonal in blocks of one item, one LLM and the
 * gate. Probe p moves member p of every block at once by ±h (a sign per block
 * and probe) and takes one gradient: block b's column p is its sign times the
 * change in its own gradient entries over h, plus other blocks' cross terms
 * with random signs, of relative size about 1/√(cells the block sees). So the
 * whole block diagonal costs as many passes as the largest block has members.
 */

/** Deterministic ±1 for (block, probe): a fixed hash, so fits repeat exactly. */
function sign(b: number, p: number): number {
  let h = Math.imul(b + 1, 0x9e3779b1) ^ Math.imul(p + 1, 0x85ebca6b);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return h & 1 ? 1 : -1;
}

/**
 * Probe the block diagonal of the Hessian at x with forward differences of
 * step h (float64 passes), and invert each block by its eigen-decomposition
 * with |λ| floored (a saddle's negative curvature taken as positive, as
 * saddle-free Newton does). One float64 pass at x, then one per probe.
 */
export async function probeBlocks(
  f: Objective,
  x: Float64Array,
  plan: BlockPlan,
  o: {
    h?: number;
    afterPass?: () => Promise<void>;
    /** An earlier probe of the same plan, no longer in use: its storage is reused. */
    into?: BlockInverse;
  } = {},
): Promise<BlockInverse> {
  const h = o.h ?? 1e-4;
  const g = new Float64Array(x.length);
  await f(x, g, false);
  await o.afterPass?.();
  const B = plan.start.length - 1;
  const width = widthOf(plan);
  const reuse = o.into?.plan === plan ? o.into : null;
  const off = reuse?.off ?? offsetsOf(plan);
  const data = reuse?.data ?? new Float64Array(off[B]);
  // Columns collect into the V area (n × n, column p at V + p·n) before decomposing.
  const xp = new Float64Array(x.length);
  const gp = new Float64Array(x.length);
  for (let p = 0; p < width; p++) {
    xp.set(x);
    for (let b = 0; b < B; b++) {
      const s = plan.start[b] + p;
      if (s < plan.start[b + 1]) xp[plan.slots[s]] += sign(b, p) * h;
    }
    await f(xp, gp, false);
    await o.afterPass?.();
    for (let b = 0; b < B; b++) {
      const n = plan.start[b + 1] - plan.start[b];
      if (p >= n) continue;
      const r = sign(b, p) / h;
      const col = off[b] + p * n;
      for (let m = 0; m < n; m++) {
        const q = plan.slots[plan.start[b] + m];
        data[col + m] = r * (gp[q] - g[q]);
      }
    }
  }
  const work = new Float64Array(width * width);
  for (let b = 0; b < B; b++)
    invertBlock(data, off[b], plan.start[b + 1] - plan.start[b], plan.nulls[b], work);
  return { plan, data, off, passes: width + 1, width };
}

/**
 * In place at data[o ..]: the n × n probed block H (column-major) becomes the
 * eigenvectors V, and data[o + n² ..] the floored inverse eigenvalues.
 */
function invertBlock(
  data: Float64Array,
  o: number,
  n: number,
  nulls: Int32Array[],
  A: Float64Array,
): void {
  for (let r = 0; r < n; r++)
    for (let c = 0; c < n; c++) A[r * n + c] = 0.5 * (data[o + c * n + r] + data[o + r * n + c]);
  floorInverse(A, n, nulls, data, o, 0);
}

/**
 * The nominal family's blocks: one per item (its K slopes then its K
 * intercepts, each centred: two null directions), one per LLM (θ, s̄, its
 * Kmax positional biases and Kmax fallback preferences, each centred) and the
 * gate (w0, κ̄). Binary models: null (no plan).
 */
export function nominalBlockPlan(posed: Posed): BlockPlan | null {
  if (posed.kind !== 'nominal') return null;
  const { problem } = posed;
  const F = posed.P.free;
  const { J, I, Kmax } = problem.layout;
  const K = problem.cells.nOptions;
  const starts: number[] = [0];
  const slots: number[] = [];
  const nulls: Int32Array[][] = [];
  const range = (from: number, n: number) => Int32Array.from({ length: n }, (_, q) => from + q);
  for (let i = 0; i < I; i++) {
    for (let k = 0; k < K[i]; k++) slots.push(F.a + i * Kmax + k);
    for (let k = 0; k < K[i]; k++) slots.push(F.c + i * Kmax + k);
    starts.push(slots.length);
    nulls.push(itemNulls(K[i]));
  }
  for (let j = 0; j < J; j++) {
    const u: Int32Array[] = [];
    slots.push(F.theta + j);
    if (F.delta > F.sBar) slots.push(F.sBar + j);
    // δ and ρ by their own lengths: without δ, F.delta equals F.rho.
    for (const [off, n] of [
      [F.delta, F.rho - F.delta],
      [F.rho, F.a - F.rho],
    ]) {
      if (n === 0) continue;
      const m = slots.length - starts[starts.length - 1];
      for (let k = 0; k < Kmax; k++) slots.push(off + j * Kmax + k);
      u.push(range(m, Kmax));
    }
    starts.push(slots.length);
    nulls.push(u);
  }
  if (F.size > F.w0) {
    for (let q = F.w0; q < F.size; q++) slots.push(q);
    starts.push(slots.length);
    nulls.push([]);
  }
  return { start: Int32Array.from(starts), slots: Int32Array.from(slots), nulls };
}

/**
 * Steps between probes of the block curvature in the fast optimiser's L-BFGS.
 * Each probe costs 2·Kmax + 3 passes; on the real four-orders demo probing
 * every 100 steps cut the final fit from 1,266 passes to 218 (the gate's walk
 * shut, see docs/optimiser.md), every 30 steps took 341.
 */
export const PROBE_EVERY = 100;

/**
 * L-BFGS's block curvature option for a posed problem: nominal models only,
 * and none when the settings ask for the count guess (`kind` 'counts').
 * Probed every `every` steps (PROBE_EVERY); `onPass(done, of)` is told after
 * each probing pass (progress: at the paper's full shape a probe takes seconds).
 */
export function blockCurvature(
  posed: Posed,
  f: Objective,
  o: {
    kind?: FitSettings['curvature'];
    every?: number;
    onPass?: (done: number, of: number) => void;
  } = {},
): LbfgsOptions['curvature'] {
  if (o.kind === 'counts') return undefined;
  const plan = nominalBlockPlan(posed);
  if (!plan) return undefined;
  const of = widthOf(plan) + 1;
  return {
    probe: (x, afterPass, into) => {
      let done = 0;
      return probeBlocks(f, x, plan, {
        afterPass: () => {
          o.onPass?.(++done, of);
          return afterPass();
        },
        into,
      });
    },
    every: o.every ?? PROBE_EVERY,
  };
}
