/**
 * A block-diagonal inverse Hessian (blocks.ts probes it) and its application:
 * L-BFGS's initial inverse Hessian H0 (optim/direction.ts). A leaf, so the
 * optimiser and the probing read it without importing each other.
 */

/** A partition of free slots into blocks (blocks.ts: one per item, one per LLM, the gate). */
export interface BlockPlan {
  /** Block b's free slots are slots[start[b] .. start[b + 1]), member p at start[b] + p. */
  start: Int32Array;
  slots: Int32Array;
  /**
   * Per block, the null directions of the parameterisation within it (a
   * centring's all-ones vector over some of its members), as member lists:
   * the curvature there is 0 and the gradient has no component along it.
   */
  nulls: Int32Array[][];
}

/** A block-diagonal inverse: out_b = M_b v_b, each M_b symmetric positive definite (blocks.ts floorInverse). */
export interface BlockInverse {
  plan: BlockPlan;
  /** Per block, M_b (n × n) at off[b]. */
  data: Float64Array;
  off: Int32Array;
  /** Probe passes spent (the base gradient included). */
  passes: number;
  /** The largest block's size. */
  width: number;
}

/** The largest block's size: the probes a plan needs, besides the base pass. */
export function widthOf(plan: BlockPlan): number {
  let width = 0;
  for (let b = 0; b + 1 < plan.start.length; b++)
    width = Math.max(width, plan.start[b + 1] - plan.start[b]);
  return width;
}

/** Where each block's M_b starts in BlockInverse.data (n² values a block). */
export function offsetsOf(plan: BlockPlan): Int32Array {
  const B = plan.start.length - 1;
  const off = new Int32Array(B + 1);
  for (let b = 0; b < B; b++) {
    const n = plan.start[b + 1] - plan.start[b];
    off[b + 1] = off[b] + n * n;
  }
  return off;
}

/** Block b's slots of v gathered into vb[0..n), then w = M_b vb. Returns n. */
function multiply(
  inv: BlockInverse,
  b: number,
  v: Float64Array,
  vb: Float64Array,
  w: Float64Array,
): number {
  const { plan, data, off } = inv;
  const s0 = plan.start[b];
  const n = plan.start[b + 1] - s0;
  for (let m = 0; m < n; m++) vb[m] = v[plan.slots[s0 + m]];
  for (let r = 0; r < n; r++) {
    let sum = 0;
    const row = off[b] + r * n;
    for (let m = 0; m < n; m++) sum += data[row + m] * vb[m];
    w[r] = sum;
  }
  return n;
}

/** out = H0 v: each block's inverse applied to its slots; slots in no block get 0. `tmp`: 2 × width. */
export function applyBlocks(
  inv: BlockInverse,
  v: Float64Array,
  out: Float64Array,
  tmp: Float64Array,
): void {
  out.fill(0);
  const { plan } = inv;
  const vb = tmp.subarray(inv.width);
  for (let b = 0; b + 1 < plan.start.length; b++) {
    const n = multiply(inv, b, v, vb, tmp);
    for (let m = 0; m < n; m++) out[plan.slots[plan.start[b] + m]] = tmp[m];
  }
}

/** vᵀ H0 v = Σ over blocks of v_bᵀ M_b v_b. `tmp`: 2 × width. */
export function quadBlocks(inv: BlockInverse, v: Float64Array, tmp: Float64Array): number {
  const { plan } = inv;
  const vb = tmp.subarray(inv.width);
  let sum = 0;
  for (let b = 0; b + 1 < plan.start.length; b++) {
    const n = multiply(inv, b, v, vb, tmp);
    for (let m = 0; m < n; m++) sum += vb[m] * tmp[m];
  }
  return sum;
}
