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

/** A block's eigen-decomposed inverse: out_b = V diag(1/λ) Vᵀ v_b. */
export interface BlockInverse {
  plan: BlockPlan;
  /** Per block, V (n × n, column-major) then 1/λ (n), at off[b]. */
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

/** Where each block's V and 1/|λ| start in BlockInverse.data (n² + n values a block). */
export function offsetsOf(plan: BlockPlan): Int32Array {
  const B = plan.start.length - 1;
  const off = new Int32Array(B + 1);
  for (let b = 0; b < B; b++) {
    const n = plan.start[b + 1] - plan.start[b];
    off[b + 1] = off[b] + n * n + n;
  }
  return off;
}

/**
 * Block b's coordinates in its eigenbasis: w_k = V_kᵀ v_b into w[0..n), with
 * v_b gathered into vb first. Returns n.
 */
function project(
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
  for (let k = 0; k < n; k++) {
    let sum = 0;
    const col = off[b] + k * n;
    for (let m = 0; m < n; m++) sum += data[col + m] * vb[m];
    w[k] = sum;
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
  const { plan, data, off } = inv;
  const vb = tmp.subarray(inv.width);
  for (let b = 0; b + 1 < plan.start.length; b++) {
    // tmp = Λ⁻¹ Vᵀ v_b, then out_b = V tmp
    const n = project(inv, b, v, vb, tmp);
    const o = off[b];
    for (let k = 0; k < n; k++) tmp[k] *= data[o + n * n + k];
    vb.fill(0, 0, n);
    for (let k = 0; k < n; k++) {
      const t = tmp[k];
      const col = o + k * n;
      for (let m = 0; m < n; m++) vb[m] += data[col + m] * t;
    }
    for (let m = 0; m < n; m++) out[plan.slots[plan.start[b] + m]] = vb[m];
  }
}

/** vᵀ H0 v = Σ over blocks and eigenpairs of (V_kᵀ v_b)² / |λ_k|: half an application's work. `tmp`: 2 × width. */
export function quadBlocks(inv: BlockInverse, v: Float64Array, tmp: Float64Array): number {
  const { plan, data, off } = inv;
  const vb = tmp.subarray(inv.width);
  let sum = 0;
  for (let b = 0; b + 1 < plan.start.length; b++) {
    const n = project(inv, b, v, vb, tmp);
    const o = off[b] + n * n;
    for (let k = 0; k < n; k++) sum += tmp[k] * tmp[k] * data[o + k];
  }
  return sum;
}
