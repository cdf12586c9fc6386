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

/**
 * A sweeper over one problem's cells. `sweep(nat, out, items?)` returns the
 * cross-entropy; with `items` (and its `index`) only those items' cells are
 * visited (the item step's per-item line search).
 */
export function createSweeper(L: NominalLayout, flags: NominalFlags, cells: Cells) {
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
    G = 0;
    f = 0;
    fp = 0;
    if (flags.fallback) {
      if (margin) {
        f = marginAt(na, nc, i * Kmax, K, g, theta, w);
        fp = marginSlope(na, i * Kmax, K, g, w);
      }
      G = 1 / (1 + Math.exp(-(nat[L.w0] - nat[L.kappa] * f)));
    }
    let m = -Infinity;
    for (let k = 0; k < K; k++) {
      v[k] = nat[ai + k] * theta + nat[ci + k] + (flags.position ? nat[dj + k] : 0);
      u[k] = s * v[k];
      z[k] = flags.fallback ? (1 - G) * u[k] + G * nat[rj + k] : u[k];
      if (z[k] > m) m = z[k];
    }
    let sum = 0;
    for (let k = 0; k < K; k++) sum += p[k] = Math.exp(z[k] - m);
    const lse = m + Math.log(sum);
    const t0 = q * Kmax;
    let ce = 0;
    T = 0;
    for (let k = 0; k < K; k++) {
      const t = target[t0 + k];
      T += t;
      ce += t * (lse - z[k]);
    }
    for (let k = 0; k < K; k++) {
      p[k] /= sum;
      e[k] = T * p[k] - target[t0 + k];
    }
    alpha = (1 - G) * s;
    gam = -nat[L.kappa] * G * (1 - G);
    be = 0;
    ER = 0;
    sCur = s;
    for (let k = 0; k < K; k++) {
      const r = flags.fallback ? nat[rj + k] - u[k] : 0;
      beta[k] = r * gam;
      d[k] = k === g ? 1 : -w[k];
      be += beta[k] * e[k];
      ER += r * e[k];
    }
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
    const i = cellI[q];
    const K = nOptions[i];
    const theta = nat[L.theta + cellJ[q]];
    let pb = 0;
    for (let k = 0; k < K; k++) pb += p[k] * beta[k];
    let bw = 0;
    for (let k = 0; k < K; k++) {
      omega[k] = T * p[k] * (beta[k] - pb);
      bw += beta[k] * omega[k];
    }
    const n2 = 2 * K;
    const a2 = alpha * alpha;
    // The second-order part Σ_k e_k ∂²z_k (the gate's curvature; 0 where G = 0),
    // with ER = Σ e_k r_k: −sγ(e dᵀ + d eᵀ) + ER·κ²G(1−G)(1−2G)·d dᵀ − be·(diag w − w wᵀ).
    const kap = nat[L.kappa];
    const sg = margin ? sCur * gam : 0;
    const er2 = margin ? ER * kap * kap * G * (1 - G) * (1 - 2 * G) : 0;
    for (let r = 0; r < K; r++) {
      for (let c = 0; c < K; c++) {
        const W = T * ((r === c ? p[r] : 0) - p[r] * p[c]);
        let h = a2 * W + alpha * (omega[r] * d[c] + d[r] * omega[c]) + bw * d[r] * d[c];
        if (margin)
          h +=
            -sg * (e[r] * d[c] + d[r] * e[c]) +
            er2 * d[r] * d[c] -
            be * ((r === c ? w[r] : 0) - w[r] * w[c]);
        out[o + r * n2 + c] += theta * theta * h;
        out[o + r * n2 + K + c] += theta * h;
        out[o + (K + r) * n2 + c] += theta * h;
        out[o + (K + r) * n2 + K + c] += h;
      }
    }
  }

  /** Adds cell q's LLM block (θ, log s, δ, ρ) and the gate's (w0, κ̄). */
  function llmBlock(nat: Float64Array, q: number, b: SweepBlocks): void {
    const j = cellJ[q];
    const i = cellI[q];
    const K = nOptions[i];
    const ai = L.a + i * Kmax;
    let qT = 0;
    let qL = 0;
    for (let k = 0; k < K; k++) {
      rowT[k] = alpha * nat[ai + k] + beta[k] * fp;
      rowL[k] = flags.sharpness ? (1 - G) * u[k] : 0;
      qT += p[k] * rowT[k];
      qL += p[k] * rowL[k];
    }
    if (b.llm) {
      const H = b.llm;
      const o = j * nL * nL;
      const dP = flags.position ? alpha : 0;
      const rP = flags.fallback ? G : 0;
      let tt = 0;
      let tl = 0;
      let ll = 0;
      for (let k = 0; k < K; k++) {
        const pk = T * p[k];
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
        for (let m = 0; m < K; m++) {
          const W = T * ((k === m ? p[k] : 0) - p[k] * p[m]);
          H[o + dk * nL + 2 + m] += W * dP * dP;
          H[o + dk * nL + 2 + Kmax + m] += W * dP * rP;
          H[o + rk * nL + 2 + Kmax + m] += W * rP * rP;
        }
      }
      H[o] += tt - T * qT * qT;
      H[o + 1] += tl - T * qT * qL;
      H[o + nL + 1] += ll - T * qL * qL;
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
    H[o] += -2 * sCur * gTheta * ea + ER * gTT;
    if (flags.sharpness) {
      H[o + 1] += alpha * ea - sCur * gTheta * ev;
      H[o + nL + 1] += alpha * ev;
    }
    for (let k = 0; k < K; k++) {
      if (flags.position) {
        H[o + 2 + k] += -sCur * gTheta * e[k];
        if (flags.sharpness) H[o + nL + 2 + k] += alpha * e[k];
      }
      if (flags.fallback) H[o + 2 + Kmax + k] += gTheta * e[k];
    }
  }

  /** The gate's rows ∂z_k/∂w0 = r_k G(1 − G), ∂z_k/∂κ̄ = −r_k G(1 − G) f σ(κ̄). */
  function gateBlock(nat: Float64Array, K: number, j: number, H: Float64Array): void {
    const kappa = nat[L.kappa];
    // σ(κ̄) = 1 − e^{−κ} for κ = softplus(κ̄).
    const dk = -Math.expm1(-kappa);
    const gg = G * (1 - G);
    let q0 = 0;
    let q1 = 0;
    let s00 = 0;
    let s01 = 0;
    let s11 = 0;
    for (let k = 0; k < K; k++) {
      const r = (nat[L.rho + j * Kmax + k] - u[k]) * gg;
      const r0 = r;
      const r1 = -r * f * dk;
      q0 += p[k] * r0;
      q1 += p[k] * r1;
      s00 += p[k] * r0 * r0;
      s01 += p[k] * r0 * r1;
      s11 += p[k] * r1 * r1;
    }
    // Second-order part ER·∂²G: G_w0w0 = G(1−G)(1−2G), G_w0κ̄ = −G(1−G)(1−2G) f σ(κ̄),
    // G_κ̄κ̄ = G(1−G)(1−2G) f² σ(κ̄)² − G(1−G) f σ(κ̄)(1 − σ(κ̄)).
    const g3 = gg * (1 - 2 * G);
    H[0] += T * (s00 - q0 * q0) + ER * g3;
    H[1] += T * (s01 - q0 * q1) - ER * g3 * f * dk;
    H[3] += T * (s11 - q1 * q1) + ER * (g3 * f * f * dk * dk - gg * f * dk * (1 - dk));
  }

  /** Every cell visited in order, each item's block handed on after its last cell (SweepBlocks.onItem). */
  function streamItems(
    visit: (q: number) => number,
    onItem: (i: number, block: Float64Array) => void,
    block: Float64Array,
  ): number {
    let total = 0;
    let cur = -1;
    for (let q = 0; q < cells.n; q++) {
      const i = cellI[q];
      if (i !== cur) {
        if (i < cur) throw new Error('internal: streamed item blocks need item-major cells');
        if (cur >= 0) onItem(cur, block);
        block.fill(0, 0, 4 * nOptions[i] * nOptions[i]);
        cur = i;
      }
      total += visit(q);
    }
    if (cur >= 0) onItem(cur, block);
    return total;
  }

  return {
    sweep(nat: Float64Array, out: SweepOut, items?: { ids: ArrayLike<number>; index: CellIndex }) {
      const na = nat.subarray(L.a);
      const nc = nat.subarray(L.c);
      const { grad, itemCE, blocks } = out;
      if (grad) grad.fill(0);
      if (blocks?.llm) blocks.llm.fill(0);
      if (blocks?.gate) blocks.gate.fill(0);
      const onItem = items ? undefined : blocks?.onItem;
      const visit = (q: number) => {
        const ce = cell(nat, na, nc, q);
        if (itemCE) itemCE[cellI[q]] += ce;
        if (grad) gradient(nat, q, grad);
        if (blocks?.item && (onItem || blocks.itemOff))
          itemBlock(nat, q, blocks.item, onItem ? 0 : blocks.itemOff![cellI[q]]);
        if (blocks && (blocks.llm || blocks.gate)) llmBlock(nat, q, blocks);
        return ce;
      };
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
      if (onItem) total = streamItems(visit, onItem, blocks!.item!);
      else for (let q = 0; q < cells.n; q++) total += visit(q);
      if (blocks?.llm) symmetrise(blocks.llm, nL, cells.J);
      if (blocks?.gate) blocks.gate[2] = blocks.gate[1];
      return total;
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
