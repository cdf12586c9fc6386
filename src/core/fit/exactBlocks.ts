/**
 * L-BFGS's block curvature (blockInverse.ts) from one sweep (sweep.ts) in
 * place of probing: the same blocks as blocks.ts's plan (one per item, one per
 * LLM, the gate), but each block's exact Hessian, computed analytically in
 * one pass, where probing takes 2·Kmax + 3 passes and carries the other
 * blocks' cross terms as noise. Inverted as blocks.ts inverts a probed block:
 * null directions given the largest diagonal entry, eigenvalues as |λ|
 * floored at 1e-6 of the largest.
 */
import { blockCurvature, floorInverse, nominalBlockPlan, PROBE_EVERY } from './blocks';
import { alternates } from './alternate';
import { offsetsOf, widthOf, type BlockInverse, type BlockPlan } from './blockInverse';
import type { LbfgsOptions } from './optim/lbfgs';
import type { Objective } from './optim/types';
import type { NominalPosed, Posed } from './pose';
import type { FitSettings } from './types';
import { createSweeper, llmBlockSize } from './sweep';
import { MARGIN_KAPPA_SD } from '../model/gate';

/** L-BFGS's curvature option with exact blocks, refreshed every `every` steps. */
export function exactCurvature(posed: NominalPosed, every: number): LbfgsOptions['curvature'] {
  const plan = nominalBlockPlan(posed);
  if (!plan) return undefined;
  const fill = blockFiller(posed, plan);
  return {
    probe: async (x, afterPass, into) => {
      const inv = fill(x, into?.plan === plan ? into : undefined);
      await afterPass();
      return inv;
    },
    every,
  };
}

/** Fills a BlockInverse for `plan` at x from one sweep's blocks and the priors' curvature. */
function blockFiller(posed: NominalPosed, plan: BlockPlan) {
  const { P } = posed;
  const { layout: L, flags, cells } = posed.problem;
  const F = P.free;
  const { J, I, Kmax } = L;
  const sw = createSweeper(L, flags, cells);
  // One item's block at a time: the sweep streams them (SweepBlocks.onItem).
  const item = new Float64Array(4 * Kmax * Kmax);
  const nL = llmBlockSize(Kmax);
  const llm = new Float64Array(J * nL * nL);
  const gate = new Float64Array(4);
  const nat = new Float64Array(P.natSize);
  const width = widthOf(plan);
  const A = new Float64Array(width * width);
  const prec = (g: 'a' | 'c' | 'logS' | 'delta' | 'rho') => {
    const sp = P.priors[g];
    return sp ? 1 / (sp.sd * sp.sd) : 0;
  };
  // An LLM block's members in the plan's order, as indices into the sweep's (θ, log s, δ, ρ).
  const llmMembers: number[] = [0];
  if (F.delta > F.sBar) llmMembers.push(1);
  if (F.rho > F.delta) for (let k = 0; k < Kmax; k++) llmMembers.push(2 + k);
  if (F.a > F.rho) for (let k = 0; k < Kmax; k++) llmMembers.push(2 + Kmax + k);
  const llmPrec = llmMembers.map((m) =>
    m === 0 ? 0 : m === 1 ? prec('logS') : m < 2 + Kmax ? prec('delta') : prec('rho'),
  );
  return (x: Float64Array, into?: BlockInverse): BlockInverse => {
    P.toNatural(x, nat);
    const B = plan.start.length - 1;
    const off = into?.off ?? offsetsOf(plan);
    const data = into?.data ?? new Float64Array(off[B]);
    const size = (b: number) => plan.start[b + 1] - plan.start[b];
    // Item b's block (its cells' sum in `block`, or none) plus its prior, inverted into data.
    const itemInto = (b: number, block: Float64Array | null) => {
      const n = size(b);
      const K = n / 2;
      for (let q = 0; q < n * n; q++) A[q] = block ? block[q] : 0;
      for (let k = 0; k < K; k++) {
        A[k * n + k] += prec('a');
        A[(K + k) * n + K + k] += prec('c');
      }
      invert(A, n, plan.nulls[b], data, off[b]);
    };
    const seen = new Uint8Array(I);
    const onItem = (i: number, block: Float64Array) => {
      seen[i] = 1;
      itemInto(i, block);
    };
    sw.sweep(nat, { grad: null, blocks: { item, onItem, llm, gate } });
    for (let b = 0; b < I; b++) if (!seen[b]) itemInto(b, null);
    for (let b = I; b < B; b++) {
      const n = size(b);
      if (b < I + J) {
        const o = (b - I) * nL * nL;
        llmMembers.forEach((r, a) =>
          llmMembers.forEach((c, d) => (A[a * n + d] = llm[o + r * nL + c])),
        );
        for (let a = 0; a < n; a++) A[a * n + a] += llmPrec[a];
      } else {
        const sk = -Math.expm1(-nat[L.kappa]);
        A[0] = gate[0];
        A[1] = A[2] = gate[1];
        A[3] = gate[3] + (flags.gate === 'margin' ? (sk * sk) / MARGIN_KAPPA_SD ** 2 : 0);
      }
      invert(A, n, plan.nulls[b], data, off[b]);
    }
    return { plan, data, off, passes: 1, width };
  };
}

/** The symmetric n × n A (row-major, destroyed) into V and floored 1/|λ| at data[o ..]. */
function invert(A: Float64Array, n: number, nulls: Int32Array[], data: Float64Array, o: number) {
  floorInverse(A, n, nulls, data, o, 1);
}

/**
 * L-BFGS's block curvature for any posed problem: exact blocks from one sweep
 * where they apply (nominal models in the default mode with the margin gate or
 * none) and `kind` allows ('exact', or absent), else blocks.ts's probing
 * (`kind` 'blocks'; none for 'counts'). The final fit's choice (fit.ts), and
 * one the λ search's inner fits can make the same way (strength.ts).
 */
export function curvatureFor(
  posed: Posed,
  f: Objective,
  o: Parameters<typeof blockCurvature>[2] & { kind?: FitSettings['curvature'] } = {},
): LbfgsOptions['curvature'] {
  const kind = o.kind ?? 'exact';
  if (kind === 'exact' && alternates(posed)) return exactCurvature(posed, o.every ?? PROBE_EVERY);
  return blockCurvature(posed, f, { ...o, kind: kind === 'exact' ? 'blocks' : kind });
}
