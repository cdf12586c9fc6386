import type { Posed } from './pose';

/**
 * A diagonal inverse-curvature guess from observation counts: the Hessian of
 * the cross-entropy in θ_j grows with the items LLM j answered, in an item's
 * (a, c) with the LLMs that answered it, and in the global gate with all cells.
 * Used as L-BFGS's initial inverse Hessian; only ratios matter (L-BFGS rescales).
 */
export function countPreconditioner(posed: Posed): Float64Array {
  const cells = posed.problem.cells;
  const nJ = new Float64Array(cells.J);
  const nI = new Float64Array(cells.I);
  for (let q = 0; q < cells.n; q++) {
    nJ[cells.cellJ[q]]++;
    nI[cells.cellI[q]]++;
  }
  const out = new Float64Array(posed.P.size).fill(1 / Math.max(1, cells.n * 0.1));
  const put = (off: number, len: number, curv: number) => {
    for (let q = off; q < off + len; q++) out[q] = 1 / (curv + 1);
  };
  if (posed.kind === 'nominal') {
    const F = posed.P.free;
    const { J, I, Kmax } = posed.problem.layout;
    for (let j = 0; j < J; j++) {
      put(F.theta + j, 1, nJ[j]);
      if (F.delta > F.sBar) put(F.sBar + j, 1, nJ[j]);
      if (F.rho > F.delta) put(F.delta + j * Kmax, Kmax, nJ[j] / Kmax);
      if (F.a > F.rho) put(F.rho + j * Kmax, Kmax, nJ[j] / Kmax);
    }
    for (let i = 0; i < I; i++) {
      const K = cells.nOptions[i];
      put(F.a + i * Kmax, Kmax, nI[i] / K);
      put(F.c + i * Kmax, Kmax, nI[i] / K);
    }
  } else {
    const F = posed.P.free;
    for (let j = 0; j < cells.J; j++) put(F.theta + j, 1, nJ[j] * 0.25);
    for (let i = 0; i < cells.I; i++) {
      if (F.nA === cells.I) put(F.a + i, 1, nI[i] * 0.25);
      put(F.d + i, 1, nI[i] * 0.25);
      if (F.uBar > F.gBar) put(F.gBar + i, 1, nI[i] * 0.1);
      if (F.size > F.uBar) put(F.uBar + i, 1, nI[i] * 0.1);
    }
  }
  return out;
}
