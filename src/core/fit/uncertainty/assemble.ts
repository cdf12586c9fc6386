/**
 * One sweep over the observed cells, item by item, that builds the Gauss–Newton
 * curvature of the MAP objective in the reduced local coordinates of
 * cells.ts and eliminates each item's own block on the spot:
 *   person side (LLM blocks + globals): the cells' Jpᵀ W Jp etc., told to a sink;
 *   item i: Q_i = Σ_cells Jqᵀ W Jq + prior, C_i = Σ_cells [Jp|Jg]ᵀ W Jq;
 *   the sink receives D_i = L_i⁻¹ C_iᵀ with Q_i = L_i L_iᵀ, so that
 *   C_i Q_i⁻¹ C_iᵀ = D_iᵀ D_i (the Schur update) and the data score U_i of the
 *   item on the person side (for the item-clustered sandwich).
 */
import type { Problem } from '../../engines/types';
import { cholRidge, forwardSolve } from '../dense';
import {
  binaryCell,
  cellScratch,
  helmert,
  itemPre,
  nominalCell,
  type ItemPre,
  type Reduced,
} from './cells';

export interface ItemBlock {
  i: number;
  /** Observed LLMs of the item, in cell order; local rows are their blocks, then the globals. */
  js: Int32Array;
  nr: number;
  /** q × nr, row-major: L_i⁻¹ C_iᵀ. */
  D: Float64Array;
  /** Cholesky factor of Q_i (q × q, lower). */
  Lq: Float64Array;
  /** Data score of the item's cells on the local person-side rows (nr). */
  U: Float64Array;
  ridge: number;
  /** Nominal only: b̃ and its gradients. */
  pre?: ItemPre;
}

export interface Sink {
  /** One cell's person-side curvature: pj × pj, pj × ng, ng × ng (row-major). */
  cell(j: number, pp: Float64Array, pg: Float64Array, gg: Float64Array): void;
  item(b: ItemBlock): void;
}

/** Global person-side index of local row t of an item with LLMs js. */
export function globalRow(R: Reduced, js: Int32Array, t: number): number {
  const n = js.length * R.pj;
  return t < n ? js[Math.floor(t / R.pj)] * R.pj + (t % R.pj) : R.J * R.pj + (t - n);
}

/** Hᵀ diag(d) H for the contrasts H (K × (K−1)) and d = prec[off..off+K), added into M at (r0, r0). */
export function addContrastPrior(
  M: Float64Array,
  w: number,
  r0: number,
  prec: Float64Array,
  off: number,
  H: Float64Array,
  K: number,
): void {
  const km = K - 1;
  for (let m = 0; m < km; m++)
    for (let l = 0; l < km; l++) {
      let s = 0;
      for (let k = 0; k < K; k++) s += H[k * km + m] * prec[off + k] * H[k * km + l];
      M[(r0 + m) * w + r0 + l] += s;
    }
}

/**
 * Sweeps every item (cells must be item-major, as buildCells makes them).
 * Returns the CE gradient on θ (natural θ_j), needed for the Lagrangian term
 * of the θ standardisation.
 */
export function sweep(
  problem: Problem,
  R: Reduced,
  nat: Float64Array,
  prec: Float64Array,
  sink: Sink,
): Float64Array {
  const cells = problem.cells;
  const { pj, ng } = R;
  const gTheta = new Float64Array(R.J);
  const o = cellScratch(R);
  const Hmax = R.kind === 'nominal' ? helmert(R.Kmax) : new Float64Array(0);
  const Hs = new Map<number, Float64Array>();
  const pp = new Float64Array(pj * pj);
  const pg = new Float64Array(pj * Math.max(1, ng));
  const gg = new Float64Array(Math.max(1, ng * ng));
  let q0 = 0;
  for (let i = 0; i < R.I; i++) {
    let q1 = q0;
    while (q1 < cells.n && cells.cellI[q1] === i) q1++;
    const qi = R.q[i];
    const js = Int32Array.from({ length: q1 - q0 }, (_, t) => cells.cellJ[q0 + t]);
    const nr = js.length * pj + ng;
    const C = new Float64Array(nr * qi);
    const Q = new Float64Array(qi * qi);
    const U = new Float64Array(nr);
    const K = cells.nOptions[i];
    let H: Float64Array = new Float64Array(0);
    let pre: ItemPre | undefined;
    if (problem.kind === 'nominal') {
      H = Hs.get(K) ?? helmert(K);
      Hs.set(K, H);
      pre = itemPre(problem, nat, i, H);
      const L = problem.layout;
      addContrastPrior(Q, qi, 0, prec, L.a + i * L.Kmax, H, K);
      addContrastPrior(Q, qi, K - 1, prec, L.c + i * L.Kmax, H, K);
    } else {
      const L = problem.layout;
      let c = 0;
      if (problem.model !== '1pl') Q[c * qi + c++] += prec[L.a + i];
      Q[c * qi + c++] += prec[L.d + i];
      if (problem.model === '3pl' || problem.model === '4pl') Q[c * qi + c++] += prec[L.g + i];
      if (problem.model === '4pl') Q[c * qi + c] += prec[L.u + i];
    }
    const w = pj + ng + qi;
    const Jc = new Float64Array(R.Kmax * w);
    const WJ = new Float64Array(R.Kmax * w);
    const M = new Float64Array(w * w);
    const sc = new Float64Array(w);
    for (let q = q0; q < q1; q++) {
      if (problem.kind === 'nominal') nominalCell(problem, R, nat, q, Hmax, H, pre!, o);
      else binaryCell(problem, R, nat, q, o);
      const Kc = o.K;
      for (let k = 0; k < Kc; k++) {
        for (let c = 0; c < pj; c++) Jc[k * w + c] = o.Jp[k * pj + c];
        for (let c = 0; c < ng; c++) Jc[k * w + pj + c] = o.Jg[k * ng + c];
        for (let c = 0; c < qi; c++) Jc[k * w + pj + ng + c] = o.Jq[k * qi + c];
      }
      for (let k = 0; k < Kc; k++)
        for (let c = 0; c < w; c++) {
          let s = 0;
          for (let l = 0; l < Kc; l++) s += o.W[k * Kc + l] * Jc[l * w + c];
          WJ[k * w + c] = s;
        }
      for (let a = 0; a < w; a++) {
        let s = 0;
        for (let k = 0; k < Kc; k++) s += Jc[k * w + a] * o.e[k];
        sc[a] = s;
        for (let b = a; b < w; b++) {
          let t = 0;
          for (let k = 0; k < Kc; k++) t += Jc[k * w + a] * WJ[k * w + b];
          M[a * w + b] = t;
          M[b * w + a] = t;
        }
      }
      const t = q - q0;
      const j = js[t];
      gTheta[j] += sc[0];
      for (let a = 0; a < pj; a++) {
        for (let b = 0; b < pj; b++) pp[a * pj + b] = M[a * w + b];
        for (let b = 0; b < ng; b++) pg[a * ng + b] = M[a * w + pj + b];
      }
      for (let a = 0; a < ng; a++)
        for (let b = 0; b < ng; b++) gg[a * ng + b] = M[(pj + a) * w + pj + b];
      sink.cell(j, pp, pg, gg);
      for (let a = 0; a < pj; a++) {
        U[t * pj + a] += sc[a];
        for (let c = 0; c < qi; c++) C[(t * pj + a) * qi + c] += M[a * w + pj + ng + c];
      }
      for (let a = 0; a < ng; a++) {
        U[js.length * pj + a] += sc[pj + a];
        for (let c = 0; c < qi; c++)
          C[(js.length * pj + a) * qi + c] += M[(pj + a) * w + pj + ng + c];
      }
      for (let a = 0; a < qi; a++)
        for (let b = 0; b < qi; b++) Q[a * qi + b] += M[(pj + ng + a) * w + pj + ng + b];
    }
    const { L: Lq, ridge } = cholRidge(Q, qi);
    // D = L⁻¹ Cᵀ: transpose C (nr × q) into q × nr, then forward-solve.
    const D = new Float64Array(qi * nr);
    for (let r = 0; r < nr; r++) for (let c = 0; c < qi; c++) D[c * nr + r] = C[r * qi + c];
    forwardSolve(Lq, qi, D, nr);
    sink.item({ i, js, nr, D, Lq, U, ridge, pre });
    q0 = q1;
  }
  if (q0 !== cells.n) throw new Error('uncertainty: cells are not in item-major order');
  return gTheta;
}
