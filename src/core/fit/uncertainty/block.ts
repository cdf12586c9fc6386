/**
 * The large-problem path of laplaceSE: the Schur complement keeps only each
 * LLM's own diagonal block (and its coupling to the globals), dropping the
 * LLM–LLM fill-in C_ij Q_i⁻¹ C_ij'ᵀ that makes the exact path cost
 * Σ_i (rows_i)² q_i. The constrained system is then solved as a bordered one,
 *   [ B  E' ] with B = blockdiag(B_j), E' = [E | A] (coupling to globals, constraint
 *   [ E'ᵀ F ]  normals), F = [[G, 0], [0, 0]],
 * whose inverse's top-left block is Z (Zᵀ S Z)⁻¹ Zᵀ:
 *   Cov_x = B⁻¹ + U W⁻¹ Uᵀ,  U = B⁻¹ E',  W = F − E'ᵀ B⁻¹ E',  Cov(x, border) = −U W⁻¹.
 * Cost: Σ_i n_i (pj² q_i) + J pj³ + small, linear in cells.
 */
import type { Problem } from '../../engines/types';
import type { Mode } from '../../model/params';
import { invGeneral, invSPD } from '../dense';
import { personCurvatureExtras } from './prior';
import { sweep, type ItemBlock } from './assemble';
import type { Reduced } from './cells';

/** Cov of the person side by the block-diagonal Schur path (see above), and item blocks' quadratics under it. */
export function blockSolve(
  problem: Problem,
  R: Reduced,
  nat: Float64Array,
  prec: Float64Array,
  mode: Mode,
  A: Float64Array,
  r: number,
): {
  varP: (idx: number) => number;
  itemQuad: (b: ItemBlock) => { X: Float64Array; cross: Float64Array | null };
  ridge: number;
} {
  const { J, pj, ng } = R;
  const { B, E, G, gTheta } = schurBlocks(problem, R, nat, prec);
  const ex = personCurvatureExtras(problem, R, nat, prec, mode, gTheta);
  for (let t = 0; t < ng * ng; t++) G[t] += ex.globals[t];
  const nb = ng + r;
  let ridge = 0;
  const Binv: Float64Array[] = [];
  const U: Float64Array[] = [];
  const W = new Float64Array(nb * nb);
  for (let a = 0; a < ng; a++) for (let b = 0; b < ng; b++) W[a * nb + b] = G[a * ng + b];
  for (let j = 0; j < J; j++) {
    for (let t = 0; t < pj * pj; t++) B[j][t] += ex.blocks[j][t];
    const s = invSPD(B[j], pj);
    ridge = Math.max(ridge, s.ridge);
    Binv.push(s.inv);
    const Ep = new Float64Array(pj * nb);
    for (let a = 0; a < pj; a++) {
      for (let b = 0; b < ng; b++) Ep[a * nb + b] = E[j][a * ng + b];
      for (let b = 0; b < r; b++) Ep[a * nb + ng + b] = A[(j * pj + a) * r + b];
    }
    const Uj = new Float64Array(pj * nb);
    for (let a = 0; a < pj; a++)
      for (let b = 0; b < nb; b++) {
        let v = 0;
        for (let k = 0; k < pj; k++) v += s.inv[a * pj + k] * Ep[k * nb + b];
        Uj[a * nb + b] = v;
      }
    U.push(Uj);
    for (let a = 0; a < nb; a++)
      for (let b = 0; b < nb; b++) {
        let v = 0;
        for (let k = 0; k < pj; k++) v += Ep[k * nb + a] * Uj[k * nb + b];
        W[a * nb + b] -= v;
      }
  }
  const Winv = invGeneral(W, nb);
  const varP = (idx: number): number => {
    if (idx >= J * pj) {
      const g = idx - J * pj;
      return Winv[g * nb + g];
    }
    const j = Math.floor(idx / pj);
    const a = idx % pj;
    let v = Binv[j][a * pj + a];
    for (let b = 0; b < nb; b++)
      for (let c = 0; c < nb; c++) v += U[j][a * nb + b] * Winv[b * nb + c] * U[j][a * nb + c];
    return v;
  };
  const itemQuad = itemQuadFor(R, nb, Binv, U, Winv);
  return { varP, itemQuad, ridge };
}

/**
 * One sweep's person side with the item blocks eliminated, keeping only each
 * LLM's own block: B_j (pj × pj), its coupling to the globals E_j (pj × ng) and
 * the globals' G (ng × ng), each less its items' Schur updates D_iᵀ D_i.
 */
function schurBlocks(problem: Problem, R: Reduced, nat: Float64Array, prec: Float64Array) {
  const { J, pj, ng } = R;
  const B = Array.from({ length: J }, () => new Float64Array(pj * pj));
  const E = Array.from({ length: J }, () => new Float64Array(pj * ng));
  const G = new Float64Array(ng * ng);
  const gTheta = sweep(problem, R, nat, prec, {
    cell(j, pp, pg, gg) {
      for (let t = 0; t < pj * pj; t++) B[j][t] += pp[t];
      for (let t = 0; t < pj * ng; t++) E[j][t] += pg[t];
      for (let t = 0; t < ng * ng; t++) G[t] += gg[t];
    },
    item(bk) {
      const { D, nr, js } = bk;
      const q = R.q[bk.i];
      const g0 = js.length * pj;
      for (let t = 0; t < js.length; t++) {
        const j = js[t];
        for (let a = 0; a < pj; a++) {
          for (let b = 0; b < pj; b++) {
            let s = 0;
            for (let c = 0; c < q; c++) s += D[c * nr + t * pj + a] * D[c * nr + t * pj + b];
            B[j][a * pj + b] -= s;
          }
          for (let b = 0; b < ng; b++) {
            let s = 0;
            for (let c = 0; c < q; c++) s += D[c * nr + t * pj + a] * D[c * nr + g0 + b];
            E[j][a * ng + b] -= s;
          }
        }
      }
      for (let a = 0; a < ng; a++)
        for (let b = 0; b < ng; b++) {
          let s = 0;
          for (let c = 0; c < q; c++) s += D[c * nr + g0 + a] * D[c * nr + g0 + b];
          G[a * ng + b] -= s;
        }
    },
  });
  return { B, E, G, gTheta };
}

/**
 * An item block's covariance quadratic X = Dᵀ Cov D (q × q, contrasts) under the
 * bordered inverse, and its cross term with the shared slope's global (when there
 * is one).
 */
function itemQuadFor(
  R: Reduced,
  nb: number,
  Binv: Float64Array[],
  U: Float64Array[],
  Winv: Float64Array,
): (bk: ItemBlock) => { X: Float64Array; cross: Float64Array | null } {
  const { pj, ng } = R;
  return (bk: ItemBlock) => {
    const { D, nr, js } = bk;
    const q = R.q[bk.i];
    const g0 = js.length * pj;
    const X = new Float64Array(q * q);
    const Vt = new Float64Array(q * nb);
    for (let t = 0; t < js.length; t++) {
      const j = js[t];
      for (let c = 0; c < q; c++) {
        const row = D.subarray(c * nr + t * pj, c * nr + t * pj + pj);
        for (let b = 0; b < nb; b++) {
          let v = 0;
          for (let k = 0; k < pj; k++) v += row[k] * U[j][k * nb + b];
          Vt[c * nb + b] += v;
        }
        for (let d = 0; d < q; d++) {
          const rd = D.subarray(d * nr + t * pj, d * nr + t * pj + pj);
          let v = 0;
          for (let a = 0; a < pj; a++)
            for (let k = 0; k < pj; k++) v += row[a] * Binv[j][a * pj + k] * rd[k];
          X[c * q + d] += v;
        }
      }
    }
    for (let c = 0; c < q; c++) for (let b = 0; b < ng; b++) Vt[c * nb + b] -= D[c * nr + g0 + b];
    for (let c = 0; c < q; c++)
      for (let d = 0; d < q; d++) {
        let v = 0;
        for (let a = 0; a < nb; a++)
          for (let b = 0; b < nb; b++) v += Vt[c * nb + a] * Winv[a * nb + b] * Vt[d * nb + b];
        X[c * q + d] += v;
      }
    let cross: Float64Array | null = null;
    if (R.gSlope >= 0) {
      cross = new Float64Array(q);
      for (let c = 0; c < q; c++)
        for (let a = 0; a < nb; a++) cross[c] -= Vt[c * nb + a] * Winv[a * nb + R.gSlope];
    }
    return { X, cross };
  };
}
