/**
 * From the person-side covariance to reported standard errors: a second sweep
 * rebuilds each item's block and forms its covariance
 *   V_i = L⁻ᵀ (I + D Cov D ᵀ) L⁻¹ = Q_i⁻¹ + Q_i⁻¹ C_iᵀ Cov C_i Q_i⁻¹
 * (contrasts), then maps it to the K centred a and c (H V Hᵀ), b̃ (delta method
 * through btilde's gradient), binary slope, d, g = σ(logit g), u, b = −d/a;
 * s = exp(log s) and κ = exp(log κ) by the delta method too.
 */
import type { Problem } from '../../engines/types';
import { forwardSolve } from '../dense';
import type { LaplaceResult } from './types';
import { sweep, type ItemBlock } from './assemble';
import { helmert, type Reduced } from './cells';

/** The reported SEs from the person-side variances and each item block's quadratic. */
export function finish(
  problem: Problem,
  R: Reduced,
  nat: Float64Array,
  prec: Float64Array,
  varP: (idx: number) => number,
  itemQuad: (b: ItemBlock) => { X: Float64Array; cross: Float64Array | null },
  method: string,
): LaplaceResult {
  const { J, I, pj } = R;
  const Kmax = R.kind === 'nominal' ? R.Kmax : 1;
  const sd = (v: number) => (v >= 0 ? Math.sqrt(v) : NaN);
  const nanArr = (n: number) => new Float64Array(n).fill(NaN);
  const out: LaplaceResult = {
    method,
    thetaSE: nanArr(J),
    sSE: nanArr(J),
    aSE: nanArr(R.kind === 'nominal' ? I * Kmax : 0),
    cSE: nanArr(R.kind === 'nominal' ? I * Kmax : 0),
    bSE: nanArr(I),
    slopeSE: nanArr(R.kind === 'binary' ? I : 0),
    dSE: nanArr(R.kind === 'binary' ? I : 0),
    gSE: nanArr(R.kind === 'binary' ? I : 0),
    uSE: nanArr(R.kind === 'binary' ? I : 0),
    w0SE: NaN,
    kappaSE: NaN,
    itemCov: [],
  };
  const G0 = J * pj;
  for (let j = 0; j < J; j++) {
    out.thetaSE[j] = sd(varP(j * pj));
    if (R.oLogS >= 0 && problem.kind === 'nominal')
      out.sSE[j] = nat[problem.layout.s + j] * sd(varP(j * pj + R.oLogS));
  }
  if (problem.kind === 'nominal' && R.gW0 >= 0) {
    out.w0SE = sd(varP(G0 + R.gW0));
    out.kappaSE = nat[problem.layout.kappa] * sd(varP(G0 + R.gLogK));
  }
  const slopeVar = R.gSlope >= 0 ? varP(G0 + R.gSlope) : NaN;
  const Hs = new Map<number, Float64Array>();
  sweep(problem, R, nat, prec, {
    cell() {},
    item(bk) {
      const q = R.q[bk.i];
      const { X, cross } = itemQuad(bk);
      const { V, Li } = itemCovariance(bk.Lq, X, q);
      out.itemCov[bk.i] = V;
      const i = bk.i;
      if (problem.kind === 'nominal') {
        const K = problem.cells.nOptions[i];
        const km = K - 1;
        const H = Hs.get(K) ?? helmert(K);
        Hs.set(K, H);
        for (let k = 0; k < K; k++)
          for (const [off, arr] of [
            [0, out.aSE],
            [km, out.cSE],
          ] as const) {
            let v = 0;
            for (let m = 0; m < km; m++)
              for (let l = 0; l < km; l++)
                v += H[k * km + m] * V[(off + m) * q + off + l] * H[k * km + l];
            arr[i * Kmax + k] = sd(v);
          }
        const g = new Float64Array(q);
        g.set(bk.pre!.gA, 0);
        g.set(bk.pre!.gC, km);
        out.bSE[i] = sd(quad(V, g, q));
        return;
      }
      const L = problem.layout;
      const m = problem.model;
      let c = 0;
      const ia = m === '1pl' ? -1 : c++;
      const id = c++;
      const a = nat[L.a + (m === '1pl' ? 0 : i)];
      const d = nat[L.d + i];
      out.dSE[i] = sd(V[id * q + id]);
      if (m === '3pl' || m === '4pl') {
        const g = nat[L.g + i];
        out.gSE[i] = g * (1 - g) * sd(V[c * q + c]);
        c++;
      }
      if (m === '4pl') {
        const u = nat[L.u + i];
        out.uSE[i] = u * (1 - u) * sd(V[c * q + c]);
      }
      const ga = d / (a * a);
      const gd = -1 / a;
      if (ia >= 0) {
        out.slopeSE[i] = sd(V[ia * q + ia]);
        out.bSE[i] = sd(
          ga * ga * V[ia * q + ia] + gd * gd * V[id * q + id] + 2 * ga * gd * V[ia * q + id],
        );
      } else if (R.gSlope >= 0 && cross) {
        // Cov(d_i, slope) = −(Q⁻¹ Cᵀ Cov[rows, slope])_d = −(L⁻ᵀ cross)_d.
        let cv = 0;
        for (let k = 0; k < q; k++) cv -= Li[k * q + id] * cross[k];
        out.slopeSE[i] = sd(slopeVar);
        out.bSE[i] = sd(ga * ga * slopeVar + gd * gd * V[id * q + id] + 2 * ga * gd * cv);
      } else out.bSE[i] = sd(gd * gd * V[id * q + id]);
    },
  });
  return out;
}

/**
 * An item block's covariance in contrasts, V = L⁻ᵀ (I + X) L⁻¹ with Q_i = L Lᵀ
 * (`Lq`) and X = D Cov Dᵀ; also L⁻¹ (`Li`). X is overwritten with I + X.
 */
function itemCovariance(
  Lq: Float64Array,
  X: Float64Array,
  q: number,
): { V: Float64Array; Li: Float64Array } {
  for (let c = 0; c < q; c++) X[c * q + c] += 1;
  const Li = new Float64Array(q * q);
  for (let c = 0; c < q; c++) Li[c * q + c] = 1;
  forwardSolve(Lq, q, Li, q);
  const V = new Float64Array(q * q);
  const T = new Float64Array(q * q);
  for (let a = 0; a < q; a++)
    for (let b = 0; b < q; b++) {
      let s = 0;
      for (let k = 0; k < q; k++) s += X[a * q + k] * Li[k * q + b];
      T[a * q + b] = s;
    }
  for (let a = 0; a < q; a++)
    for (let b = 0; b < q; b++) {
      let s = 0;
      for (let k = 0; k < q; k++) s += Li[k * q + a] * T[k * q + b];
      V[a * q + b] = s;
    }
  return { V, Li };
}

function quad(V: Float64Array, g: Float64Array, q: number): number {
  let s = 0;
  for (let a = 0; a < q; a++) for (let b = 0; b < q; b++) s += g[a] * V[a * q + b] * g[b];
  return s;
}
