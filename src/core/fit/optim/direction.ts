/** L-BFGS's search direction: the curvature memory and the two-loop recursion. */
import { applyBlocks, quadBlocks, type BlockInverse } from '../blockInverse';
import { axpyDot, dot } from './vector';

/** L-BFGS's curvature memory: pairs (s, y) oldest first, with sᵀy and yᵀPy of each. */
export interface Memory {
  S: Float64Array[];
  Y: Float64Array[];
  /** 1 / sᵀy. */
  rhos: number[];
  sy: number[];
  yPy: number[];
  /** Pairs taken so far (never reset): which pair is newest. */
  taken: number;
}

/**
 * d = −H g by the two-loop recursion, H0 = γ·diag(P) with γ = sᵀy / yᵀPy of the
 * newest pair (1 / max(1, √gᵀPg) without pairs). Each axpy shares its pass over
 * memory with the next pair's dot product, and H0's scaling with the last axpy of
 * the first loop and the first dot of the second: the plain recursion's
 * arithmetic (its dot products summed in four interleaved parts) in about half
 * the passes over the n-vectors, which at 10⁶ parameters and 30 pairs cost as
 * much as a pass over the data.
 */
export function direction(
  d: Float64Array,
  g: Float64Array,
  mem: Memory,
  alpha: Float64Array,
  P: Float64Array | undefined,
  H0?: BlockH0,
): void {
  const n = g.length;
  const { S, Y, rhos } = mem;
  const m = S.length;
  if (m === 0 && H0) {
    applyBlocks(H0.inv, g, d, H0.tmp);
    for (let q = 0; q < n; q++) d[q] = -d[q];
    return;
  }
  if (m === 0) {
    let ghg = 0;
    for (let q = 0; q < n; q++) ghg += g[q] * g[q] * (P ? P[q] : 1);
    const gamma = 1 / Math.max(1, Math.sqrt(ghg));
    for (let q = 0; q < n; q++) d[q] = -g[q] * (gamma * (P ? P[q] : 1));
    return;
  }
  if (H0 && H0.yAt !== mem.taken) {
    H0.yBy = quadBlocks(H0.inv, Y[m - 1], H0.tmp);
    H0.yAt = mem.taken;
  }
  const gamma = mem.sy[m - 1] / (H0 ? H0.yBy : mem.yPy[m - 1]);
  for (let q = 0; q < n; q++) d[q] = -g[q];
  let a = rhos[m - 1] * dot(S[m - 1], d);
  // First loop, k = m−1 … 0: d −= α_k y_k, then α_(k−1) = ρ s_(k−1)ᵀd (or, after
  // k = 0, d ·= γP and β_0 = ρ_0 y_0ᵀd).
  for (let k = m - 1; k > 0; k--) {
    alpha[k] = a;
    a = rhos[k - 1] * axpyDot(d, -a, Y[k], S[k - 1]);
  }
  alpha[0] = a;
  const y0 = Y[0];
  let acc = 0;
  if (H0) {
    // d −= α_0 y_0, then d = γ B⁻¹ d and β_0's dot.
    for (let q = 0; q < n; q++) d[q] -= a * y0[q];
    applyBlocks(H0.inv, d, H0.out, H0.tmp);
    const out = H0.out;
    for (let q = 0; q < n; q++) {
      const v = gamma * out[q];
      d[q] = v;
      acc += y0[q] * v;
    }
  } else
    for (let q = 0; q < n; q++) {
      const v = (d[q] - a * y0[q]) * (gamma * (P ? P[q] : 1));
      d[q] = v;
      acc += y0[q] * v;
    }
  let b = rhos[0] * acc;
  // Second loop, k = 0 … m−1: d += (α_k − β_k) s_k, then β_(k+1) = ρ y_(k+1)ᵀd.
  for (let k = 0; k + 1 < m; k++) b = rhos[k + 1] * axpyDot(d, alpha[k] - b, S[k], Y[k + 1]);
  const c = alpha[m - 1] - b;
  const s = S[m - 1];
  for (let q = 0; q < n; q++) d[q] += c * s[q];
}

/** A probed block inverse as H0, with its scratch. */
export interface BlockH0 {
  inv: BlockInverse;
  tmp: Float64Array;
  out: Float64Array;
  /** yᵀB⁻¹y of the newest pair (γ's denominator) when the memory had taken `yAt` pairs. */
  yBy: number;
  yAt: number;
}

/**
 * Takes the step's pair s = xn − x, y = gn − g into the memory (the oldest
 * dropped past `size`) when its curvature sᵀy is clearly positive. `spare`
 * holds the next pair's vectors (fresh until the memory is full, then the
 * oldest pair's) and is updated in place. One pass: s, y, sᵀy, sᵀs, yᵀy, yᵀPy.
 */
export function remember(
  mem: Memory,
  size: number,
  spare: { s: Float64Array; y: Float64Array },
  x: Float64Array,
  xn: Float64Array,
  g: Float64Array,
  gn: Float64Array,
  P: Float64Array | undefined,
): void {
  const n = x.length;
  const { s, y } = spare;
  let sy = 0;
  let ss = 0;
  let yy = 0;
  let yPy = 0;
  for (let q = 0; q < n; q++) {
    const sq = xn[q] - x[q];
    const yq = gn[q] - g[q];
    s[q] = sq;
    y[q] = yq;
    sy += sq * yq;
    ss += sq * sq;
    yy += yq * yq;
    yPy += yq * yq * (P ? P[q] : 1);
  }
  if (!(sy > 1e-12 * Math.sqrt(ss * yy))) return;
  mem.S.push(s);
  mem.Y.push(y);
  mem.rhos.push(1 / sy);
  mem.taken++;
  mem.sy.push(sy);
  mem.yPy.push(yPy);
  if (mem.S.length > size) {
    spare.s = mem.S.shift()!;
    spare.y = mem.Y.shift()!;
    mem.rhos.shift();
    mem.sy.shift();
    mem.yPy.shift();
  } else {
    spare.s = new Float64Array(n);
    spare.y = new Float64Array(n);
  }
}
