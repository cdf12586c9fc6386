/**
 * One pass over a nominal problem's cells that returns, besides the
 * cross-entropy and its gradient in natural parameters (as nominalCE does),
 * the Gauss–Newton curvature of every item's (a, c), every LLM's (θ, log s,
 * δ, ρ) and the gate's (w0, κ̄) as dense blocks: what the alternating solver
 * (alternate.ts) steps with. The cross-entropy of one cell is convex in its
 * logits z (Hessian W = T(diag p − ppᵀ), T the cell's target mass), so JᵀWJ
 * with J = ∂z/∂(block) is positive semi-definite; where the gate is shut
 * (G = 0) z is linear in an item's parameters and it is the exact Hessian.
 *
 * Only the default mode's gate form ('margin', gate.ts) or no gate: eq. 10's
 * b̃ is not handled here (`sweepable`).
 */
import type { Cells } from '../model/cells';
import { margin as marginAt, marginSlope } from '../model/gate';
import type { NominalFlags, NominalLayout } from '../model/types';

/** Whether the sweep handles these flags (the margin gate or none). */
export function sweepable(flags: NominalFlags): boolean {
  return !flags.fallback || flags.gate === 'margin';
}

/** Members of one LLM's block: θ, log s, δ_0..δ_{Kmax−1}, ρ_0..ρ_{Kmax−1}. */
export function llmBlockSize(Kmax: number): number {
  return 2 + 2 * Kmax;
}

/** Where each item's 2K × 2K block (a then c, row-major) starts; the last entry is the total. */
export function itemBlockOffsets(nOptions: Uint8Array): Int32Array {
  const off = new Int32Array(nOptions.length + 1);
  for (let i = 0; i < nOptions.length; i++) off[i + 1] = off[i] + 4 * nOptions[i] * nOptions[i];
  return off;
}

/** The curvature blocks a sweep fills (each optional). */
export interface SweepBlocks {
  /** Items' blocks at `itemOff[i]`, 2K × 2K over (a_0..a_{K−1}, c_0..c_{K−1}). */
  item?: Float64Array;
  itemOff?: Int32Array;
  /**
   * Streams the items' blocks instead of storing them all (a full sweep
   * only): each item's block is summed in `item` from offset 0, its cells
   * being contiguous (item-major), and handed to `onItem` after its last
   * cell; `itemOff` is not read. At the full shape this saves a copy of
   * every block (46 MB).
   */
  onItem?: (i: number, block: Float64Array) => void;
  /** LLMs' blocks, j at j·n², n = llmBlockSize(Kmax), over (θ, log s, δ, ρ). */
  llm?: Float64Array;
  /** The gate's 2 × 2 block over (w0, κ̄), κ = softplus(κ̄). */
  gate?: Float64Array;
}

/** What a sweep computes besides the blocks. */
export interface SweepOut {
  /** ∂CE/∂nat, overwritten (null: not computed). */
  grad: Float64Array | null;
  /** Each item's own cross-entropy (its cells' sum), overwritten where swept. */
  itemCE?: Float64Array;
  blocks?: SweepBlocks;
}

/** Cells grouped by item: item i's cells are list[start[i] .. start[i + 1]). */
export interface CellIndex {
  start: Int32Array;
  list: Uint32Array;
}

export function indexCells(by: Uint32Array, groups: number): CellIndex {
  const start = new Int32Array(groups + 1);
  for (let q = 0; q < by.length; q++) start[by[q] + 1]++;
  for (let b = 0; b < groups; b++) start[b + 1] += start[b];
  const fill = start.slice(0, groups);
  const list = new Uint32Array(by.length);
  for (let q = 0; q < by.length; q++) list[fill[by[q]]++] = q;
  return { start, list };
}

/** What a sweep reads of the cells: a whole problem's, or a shard's share (item-major). */
export type SweepCells = Pick<Cells, 'n' | 'J' | 'cellJ' | 'cellI' | 'target' | 'nOptions' | 'key'>;

/**
 * A sweeper over one problem's cells. `sweep(nat, out, items?)` returns the
 * cross-entropy; with `items` (and its `index`) only those items' cells are
 * visited (the item step's per-item line search). `stride`: cell q's targets
 * start at q·stride (Kmax, or the WASM kernel's Kmax rounded up to 4).
 */
export function createSweeper(
  L: NominalLayout,
  flags: NominalFlags,
  cells: SweepCells,
  stride = L.Kmax,
) {
  const { Kmax } = L;
  const { nOptions, key, cellJ, cellI, target } = cells;
  const z = new Float64Array(Kmax);
  const u = new Float64Array(Kmax);
  const v = new Float64Array(Kmax);
  const p = new Float64Array(Kmax);
  const e = new Float64Array(Kmax);
  const w = new Float64Array(Kmax);
  const d = new Float64Array(Kmax);
  const beta = new Float64Array(Kmax);
  const omega = new Float64Array(Kmax);
  const rowT = new Float64Array(Kmax);
  const rowL = new Float64Array(Kmax);
  const nL = llmBlockSize(Kmax);
  const margin = flags.fallback && flags.gate === 'margin';
  const arrays = { z, u, v, p, e, w, d, beta, omega, rowT, rowL };
  // The current cell's state, set by `cell`.
  let T = 0;
  let G = 0;
  let f = 0;
  let fp = 0;
  let alpha = 1;
  let gam = 0;
  let be = 0;
  let ER = 0;
  let sCur = 1;

  /** Cell q's logits, probabilities and e = ∂CE/∂z; returns its cross-entropy. */
  function cell(nat: Float64Array, na: Float64Array, nc: Float64Array, q: number): number {
    // Locals, not the closure's variables, in the loops (see `visit`).
    const { z, u, v, p, e, w, d, beta } = arrays;
    const fallback = flags.fallback;
    const position = flags.position;
    const j = cellJ[q];
    const i = cellI[q];
    const K = nOptions[i];
    const g = key[i];
    const theta = nat[L.theta + j];
    const s = flags.sharpness ? nat[L.s + j] : 1;
    const ai = L.a + i * Kmax;
    const ci = L.c + i * Kmax;
    const dj = L.delta + j * Kmax;
    const rj = L.rho + j * Kmax;
    let gc = 0;
    let fc = 0;
    let fpc = 0;
    if (fallback) {
      if (margin) {
        fc = marginAt(na, nc, i * Kmax, K, g, theta, w);
        fpc = marginSlope(na, i * Kmax, K, g, w);
      }
      gc = 1 / (1 + Math.exp(-(nat[L.w0] - nat[L.kappa] * fc)));
    }
    let m = -Infinity;
    for (let k = 0; k < K; k++) {
      v[k] = nat[ai + k] * theta + nat[ci + k] + (position ? nat[dj + k] : 0);
      u[k] = s * v[k];
      z[k] = fallback ? (1 - gc) * u[k] + gc * nat[rj + k] : u[k];
      if (z[k] > m) m = z[k];
    }
    let sum = 0;
    for (let k = 0; k < K; k++) sum += p[k] = Math.exp(z[k] - m);
    const lse = m + Math.log(sum);
    const t0 = q * stride;
    let ce = 0;
    let tm = 0;
    for (let k = 0; k < K; k++) {
      const t = target[t0 + k];
      tm += t;
      ce += t * (lse - z[k]);
    }
    for (let k = 0; k < K; k++) {
      p[k] /= sum;
      e[k] = tm * p[k] - target[t0 + k];
    }
    const gm = -nat[L.kappa] * gc * (1 - gc);
    let bec = 0;
    let er = 0;
    for (let k = 0; k < K; k++) {
      const r = fallback ? nat[rj + k] - u[k] : 0;
      beta[k] = r * gm;
      d[k] = k === g ? 1 : -w[k];
      bec += beta[k] * e[k];
      er += r * e[k];
    }
    T = tm;
    G = gc;
    f = fc;
    fp = fpc;
    alpha = (1 - gc) * s;
    gam = gm;
    be = bec;
    ER = er;
    sCur = s;
    return ce;
  }

  /** Adds cell q's ∂CE/∂nat into grad (as nominalCE). */
  function gradient(nat: Float64Array, q: number, grad: Float64Array): void {
    const j = cellJ[q];
    const i = cellI[q];
    const K = nOptions[i];
    const theta = nat[L.theta + j];
    const ai = L.a + i * Kmax;
    const ci = L.c + i * Kmax;
    let gt = 0;
    let gs = 0;
    for (let k = 0; k < K; k++) {
      const mt = alpha * e[k] + (margin ? d[k] * be : 0);
      grad[ai + k] += theta * mt;
      grad[ci + k] += mt;
      if (flags.position) grad[L.delta + j * Kmax + k] += alpha * e[k];
      if (flags.fallback) grad[L.rho + j * Kmax + k] += G * e[k];
      gs += (1 - G) * e[k] * v[k];
      gt += alpha * e[k] * nat[ai + k];
    }
    gt += be * fp;
    if (flags.sharpness) grad[L.s + j] += gs;
    grad[L.theta + j] += gt;
    if (flags.fallback) {
      let er = 0;
      for (let k = 0; k < K; k++) er += e[k] * (nat[L.rho + j * Kmax + k] - u[k]);
      grad[L.w0] += er * G * (1 - G);
      grad[L.kappa] -= er * G * (1 - G) * f;
    }
  }

  /**
   * Adds cell q's item block: with M = αI + βdᵀ (∂z/∂a = θM, ∂z/∂c = M),
   * H = MᵀWM in a Kronecker product with [θ², θ; θ, 1].
   */
  function itemBlock(nat: Float64Array, q: number, out: Float64Array, o: number): void {
    // The cell's state in locals, not read from the closure in the loops (see `visit`).
    const { p, beta, omega, d, e, w } = arrays;
    const tm = T;
    const al = alpha;
    const bE = be;
    const i = cellI[q];
    const K = nOptions[i];
    const theta = nat[L.theta + cellJ[q]];
    let pb = 0;
    for (let k = 0; k < K; k++) pb += p[k] * beta[k];
    let bw = 0;
    for (let k = 0; k < K; k++) {
      omega[k] = tm * p[k] * (beta[k] - pb);
      bw += beta[k] * omega[k];
    }
    const n2 = 2 * K;
    const a2 = al * al;
    // The second-order part Σ_k e_k ∂²z_k (the gate's curvature; 0 where G = 0),
    // with ER = Σ e_k r_k: −sγ(e dᵀ + d eᵀ) + ER·κ²G(1−G)(1−2G)·d dᵀ − be·(diag w − w wᵀ).
    const kap = nat[L.kappa];
    const sg = margin ? sCur * gam : 0;
    const er2 = margin ? ER * kap * kap * G * (1 - G) * (1 - 2 * G) : 0;
    const t2 = theta * theta;
    for (let r = 0; r < K; r++) {
      const row0 = o + r * n2;
      const row1 = o + (K + r) * n2;
      for (let c = 0; c < K; c++) {
        const W = tm * ((r === c ? p[r] : 0) - p[r] * p[c]);
        let h = a2 * W + al * (omega[r] * d[c] + d[r] * omega[c]) + bw * d[r] * d[c];
        if (margin)
          h +=
            -sg * (e[r] * d[c] + d[r] * e[c]) +
            er2 * d[r] * d[c] -
            bE * ((r === c ? w[r] : 0) - w[r] * w[c]);
        out[row0 + c] += t2 * h;
        out[row0 + K + c] += theta * h;
        out[row1 + c] += theta * h;
        out[row1 + K + c] += h;
      }
    }
  }

  /** Adds cell q's LLM block (θ, log s, δ, ρ) and the gate's (w0, κ̄). */
  function llmBlock(nat: Float64Array, q: number, b: SweepBlocks): void {
    // Locals, not the closure's variables, in the loops (see `visit`).
    const { u, p, beta, rowT, rowL } = arrays;
    const tm = T;
    const gc = G;
    const al = alpha;
    const fpc = fp;
    const j = cellJ[q];
    const i = cellI[q];
    const K = nOptions[i];
    const ai = L.a + i * Kmax;
    const sharp = flags.sharpness;
    let qT = 0;
    let qL = 0;
    for (let k = 0; k < K; k++) {
      rowT[k] = al * nat[ai + k] + beta[k] * fpc;
      rowL[k] = sharp ? (1 - gc) * u[k] : 0;
      qT += p[k] * rowT[k];
      qL += p[k] * rowL[k];
    }
    if (b.llm) {
      const H = b.llm;
      const o = j * nL * nL;
      const dP = flags.position ? al : 0;
      const rP = flags.fallback ? gc : 0;
      let tt = 0;
      let tl = 0;
      let ll = 0;
      for (let k = 0; k < K; k++) {
        const pk = tm * p[k];
        tt += pk * rowT[k] * rowT[k];
        tl += pk * rowT[k] * rowL[k];
        ll += pk * rowL[k] * rowL[k];
        // (θ or log s, δ_k / ρ_k) and (δ_k, δ_m) ...: the one-hot rows' terms.
        const cT = pk * (rowT[k] - qT);
        const cL = pk * (rowL[k] - qL);
        const dk = 2 + k;
        const rk = 2 + Kmax + k;
        H[o + dk] += cT * dP;
        H[o + rk] += cT * rP;
        H[o + nL + dk] += cL * dP;
        H[o + nL + rk] += cL * rP;
        const rowD = o + dk * nL + 2;
        const rowR = o + rk * nL + 2 + Kmax;
        // The upper triangle only (`symmetrise` copies it onto the lower): (δ_k, δ_m)
        // and (ρ_k, ρ_m) for m ≥ k, (δ_k, ρ_m) for every m.
        for (let m = 0; m < K; m++) {
          const W = tm * ((k === m ? p[k] : 0) - p[k] * p[m]);
          H[rowD + Kmax + m] += W * dP * rP;
          if (m < k) continue;
          H[rowD + m] += W * dP * dP;
          H[rowR + m] += W * rP * rP;
        }
      }
      H[o] += tt - tm * qT * qT;
      H[o + 1] += tl - tm * qT * qL;
      H[o + nL + 1] += ll - tm * qL * qL;
      llmSecondOrder(nat, i, K, H, o);
    }
    if (b.gate && flags.fallback) gateBlock(nat, K, j, b.gate);
  }

  /**
   * Adds Σ_k e_k ∂²z_k to the LLM block's upper triangle (the exact Hessian's
   * second-order part): with G_θ = γf', z_k = s v_k + G r_k,
   * θθ: −2sG_θ Σ e a + ER·G_θθ; θℓ: α Σ e a − sG_θ Σ e v; θδ_k: −sG_θ e_k;
   * θρ_k: G_θ e_k; ℓℓ: α Σ e v; ℓδ_k: α e_k.
   */
  function llmSecondOrder(nat: Float64Array, i: number, K: number, H: Float64Array, o: number) {
    const { v, e, w } = arrays;
    const al = alpha;
    const s = sCur;
    const ai = L.a + i * Kmax;
    let ea = 0;
    let ev = 0;
    for (let k = 0; k < K; k++) {
      ea += e[k] * nat[ai + k];
      ev += e[k] * v[k];
    }
    let gTheta = 0;
    let gTT = 0;
    if (margin) {
      const kap = nat[L.kappa];
      let wa = 0;
      let wa2 = 0;
      for (let k = 0; k < K; k++) {
        wa += w[k] * nat[ai + k];
        wa2 += w[k] * nat[ai + k] * nat[ai + k];
      }
      const f2 = -(wa2 - wa * wa);
      gTheta = gam * fp;
      gTT = kap * kap * G * (1 - G) * (1 - 2 * G) * fp * fp + gam * f2;
    }
    H[o] += -2 * s * gTheta * ea + ER * gTT;
    if (flags.sharpness) {
      H[o + 1] += al * ea - s * gTheta * ev;
      H[o + nL + 1] += al * ev;
    }
    const position = flags.position;
    const sharp = flags.sharpness;
    const fallback = flags.fallback;
    for (let k = 0; k < K; k++) {
      if (position) {
        H[o + 2 + k] += -s * gTheta * e[k];
        if (sharp) H[o + nL + 2 + k] += al * e[k];
      }
      if (fallback) H[o + 2 + Kmax + k] += gTheta * e[k];
    }
  }

  /** The gate's rows ∂z_k/∂w0 = r_k G(1 − G), ∂z_k/∂κ̄ = −r_k G(1 − G) f σ(κ̄). */
  function gateBlock(nat: Float64Array, K: number, j: number, H: Float64Array): void {
    const { u, p } = arrays;
    const gc = G;
    const fc = f;
    const kappa = nat[L.kappa];
    // σ(κ̄) = 1 − e^{−κ} for κ = softplus(κ̄).
    const dk = -Math.expm1(-kappa);
    const gg = gc * (1 - gc);
    const rj = L.rho + j * Kmax;
    let q0 = 0;
    let q1 = 0;
    let s00 = 0;
    let s01 = 0;
    let s11 = 0;
    for (let k = 0; k < K; k++) {
      const r = (nat[rj + k] - u[k]) * gg;
      const r0 = r;
      const r1 = -r * fc * dk;
      q0 += p[k] * r0;
      q1 += p[k] * r1;
      s00 += p[k] * r0 * r0;
      s01 += p[k] * r0 * r1;
      s11 += p[k] * r1 * r1;
    }
    // Second-order part ER·∂²G: G_w0w0 = G(1−G)(1−2G), G_w0κ̄ = −G(1−G)(1−2G) f σ(κ̄),
    // G_κ̄κ̄ = G(1−G)(1−2G) f² σ(κ̄)² − G(1−G) f σ(κ̄)(1 − σ(κ̄)).
    const g3 = gg * (1 - 2 * gc);
    const tm = T;
    H[0] += tm * (s00 - q0 * q0) + ER * g3;
    H[1] += tm * (s01 - q0 * q1) - ER * g3 * fc * dk;
    H[3] += tm * (s11 - q1 * q1) + ER * (g3 * fc * fc * dk * dk - gg * fc * dk * (1 - dk));
  }

  // The current sweep's arguments, read by `visit`. One `visit` for every
  // sweep, not a closure per sweep: V8 then keeps its calls optimised from one
  // sweep to the next (a new closure each sweep left later sweeps 40% slower).
  let cur: {
    nat: Float64Array;
    na: Float64Array;
    nc: Float64Array;
    out: SweepOut;
    itemAt: Int32Array | null;
  } | null = null;

  /** Cell q's cross-entropy, gradient and blocks into the current sweep's outputs. */
  function visit(q: number): number {
    const { nat, na, nc, out, itemAt } = cur!;
    const { grad, itemCE, blocks } = out;
    const ce = cell(nat, na, nc, q);
    if (itemCE) itemCE[cellI[q]] += ce;
    if (grad) gradient(nat, q, grad);
    if (blocks?.item && itemAt) itemBlock(nat, q, blocks.item, itemAt[cellI[q]]);
    if (blocks && (blocks.llm || blocks.gate)) llmBlock(nat, q, blocks);
    return ce;
  }

  /** Every cell visited in order, each item's block handed on after its last cell (SweepBlocks.onItem). */
  function streamItems(onItem: (i: number, block: Float64Array) => void, block: Float64Array) {
    let total = 0;
    let item = -1;
    for (let q = 0; q < cells.n; q++) {
      const i = cellI[q];
      if (i !== item) {
        if (i < item) throw new Error('internal: streamed item blocks need item-major cells');
        if (item >= 0) onItem(item, block);
        block.fill(0, 0, 4 * nOptions[i] * nOptions[i]);
        item = i;
      }
      total += visit(q);
    }
    if (item >= 0) onItem(item, block);
    return total;
  }

  // Streamed item blocks all start at offset 0.
  const streamAt = new Int32Array(nOptions.length);

  return {
    sweep(nat: Float64Array, out: SweepOut, items?: { ids: ArrayLike<number>; index: CellIndex }) {
      const { grad, itemCE, blocks } = out;
      if (grad) grad.fill(0);
      if (blocks?.llm) blocks.llm.fill(0);
      if (blocks?.gate) blocks.gate.fill(0);
      const onItem = items ? undefined : blocks?.onItem;
      const itemAt = blocks?.item ? (onItem ? streamAt : (blocks.itemOff ?? null)) : null;
      cur = { nat, na: nat.subarray(L.a), nc: nat.subarray(L.c), out, itemAt };
      try {
        let total = 0;
        if (items) {
          for (let b = 0; b < items.ids.length; b++) {
            const i = items.ids[b];
            if (itemCE) itemCE[i] = 0;
            if (blocks?.item && blocks.itemOff)
              blocks.item.fill(0, blocks.itemOff[i], blocks.itemOff[i + 1]);
            for (let r = items.index.start[i]; r < items.index.start[i + 1]; r++)
              total += visit(items.index.list[r]);
          }
          return total;
        }
        if (itemCE) itemCE.fill(0);
        if (blocks?.item) blocks.item.fill(0);
        if (onItem) total = streamItems(onItem, blocks!.item!);
        else for (let q = 0; q < cells.n; q++) total += visit(q);
        if (blocks?.llm) symmetrise(blocks.llm, nL, cells.J);
        if (blocks?.gate) blocks.gate[2] = blocks.gate[1];
        return total;
      } finally {
        cur = null;
      }
    },
  };
}

/** Copies each n × n block's upper triangle (row-major) onto its lower one. */
function symmetrise(H: Float64Array, n: number, count: number): void {
  for (let b = 0; b < count; b++) {
    const o = b * n * n;
    for (let r = 0; r < n; r++) for (let c = r + 1; c < n; c++) H[o + c * n + r] = H[o + r * n + c];
  }
}
