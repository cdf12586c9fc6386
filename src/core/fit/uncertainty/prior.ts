/**
 * The person side's extras for laplaceSE: the prior precision in reduced
 * coordinates (δ, ρ through their Helmert contrasts), the Lagrangian term of
 * the θ standardisation, and the tangent-space constraint normals of mode
 * 'default'.
 */
import type { Problem } from '../../engines/types';
import type { Mode } from '../../model/params';
import { addContrastPrior } from './assemble';
import { helmert, type Reduced } from './cells';

/** Prior precision of the person side in reduced coordinates, with the Lagrangian θ term. */
export function personCurvatureExtras(
  problem: Problem,
  R: Reduced,
  nat: Float64Array,
  prec: Float64Array,
  mode: Mode,
  gTheta: Float64Array,
): { blocks: Float64Array[]; globals: Float64Array } {
  const L = problem.layout;
  const { pj, ng, J } = R;
  let mu = 0;
  if (mode === 'default' && J >= 2) {
    let num = 0;
    let den = 0;
    for (let j = 0; j < J; j++) {
      const t = nat[L.theta + j];
      num += (gTheta[j] + prec[L.theta + j] * t) * t;
      den += t * t;
    }
    mu = den > 0 ? num / den : 0;
  }
  const Hmax = R.kind === 'nominal' ? helmert(R.Kmax) : null;
  const blocks = Array.from({ length: J }, (_, j) => {
    const B = new Float64Array(pj * pj);
    B[0] = prec[L.theta + j] - mu;
    if (problem.kind === 'nominal') {
      const N = problem.layout;
      if (R.oLogS >= 0) B[R.oLogS * pj + R.oLogS] = prec[N.s + j];
      if (R.oDelta >= 0)
        addContrastPrior(B, pj, R.oDelta, prec, N.delta + j * R.Kmax, Hmax!, R.Kmax);
      if (R.oRho >= 0) addContrastPrior(B, pj, R.oRho, prec, N.rho + j * R.Kmax, Hmax!, R.Kmax);
    }
    return B;
  });
  const globals = new Float64Array(Math.max(1, ng * ng));
  if (problem.kind === 'nominal' && ng) {
    globals[R.gW0 * ng + R.gW0] = prec[problem.layout.w0];
    globals[R.gLogK * ng + R.gLogK] = prec[problem.layout.kappa];
  } else if (problem.kind === 'binary' && ng) globals[0] = prec[problem.layout.a];
  return { blocks, globals };
}

/** Tangent-space constraint normals A (P × r, row-major) of mode 'default'. */
export function constraintMatrix(
  problem: Problem,
  R: Reduced,
  nat: Float64Array,
  mode: Mode,
): { A: Float64Array; r: number } {
  const { J, pj, P } = R;
  if (mode !== 'default' || J < 2) return { A: new Float64Array(0), r: 0 };
  const cols: ((j: number) => [number, number])[] = [
    () => [0, 1],
    (j) => [0, nat[problem.layout.theta + j]],
  ];
  if (R.oLogS >= 0) cols.push(() => [R.oLogS, 1]);
  if (R.oDelta >= 0) for (let m = 0; m < R.Kmax - 1; m++) cols.push(() => [R.oDelta + m, 1]);
  const r = cols.length;
  const A = new Float64Array(P * r);
  cols.forEach((f, c) => {
    for (let j = 0; j < J; j++) {
      const [off, v] = f(j);
      A[(j * pj + off) * r + c] = v;
    }
  });
  return { A, r };
}
