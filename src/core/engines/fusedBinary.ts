import type { Cells } from '../model/cells';
import type { BinaryLayout, BinaryModel } from '../model/types';

/** Probabilities are kept this far from 0 and 1 inside the log-loss. */
const P_FLOOR = 1e-12;

/**
 * Cross-entropy of the binary family on correctness and its analytic gradient:
 *   P = g + (u − g) σ(a θ + d),  CE = −Σ [y log P + (1 − y) log(1 − P)].
 * 1PL reads one shared slope from a[0]; 2PL fixes g = 0, u = 1; 3PL fixes u = 1.
 * The parameterisation (which entries are free) lives in params.ts; this
 * function always fills the gradient of every natural entry it reads.
 */
export function binaryCE(
  nat: Float64Array,
  grad: Float64Array | null,
  L: BinaryLayout,
  model: BinaryModel,
  cells: Cells,
): number {
  if (grad) grad.fill(0);
  const shared = model === '1pl';
  const useG = model === '3pl' || model === '4pl';
  const useU = model === '4pl';
  let ce = 0;
  for (let q = 0; q < cells.n; q++) {
    const j = cells.cellJ[q];
    const i = cells.cellI[q];
    const y = cells.correct[q];
    const theta = nat[L.theta + j];
    const ia = L.a + (shared ? 0 : i);
    const a = nat[ia];
    const d = nat[L.d + i];
    const g = useG ? nat[L.g + i] : 0;
    const u = useU ? nat[L.u + i] : 1;
    const sig = 1 / (1 + Math.exp(-(a * theta + d)));
    const raw = g + (u - g) * sig;
    const P = Math.min(Math.max(raw, P_FLOOR), 1 - P_FLOOR);
    ce -= y * Math.log(P) + (1 - y) * Math.log(1 - P);
    if (!grad || P !== raw) continue;
    const gP = -y / P + (1 - y) / (1 - P);
    const gx = gP * (u - g) * sig * (1 - sig);
    grad[L.theta + j] += gx * a;
    grad[ia] += gx * theta;
    grad[L.d + i] += gx;
    if (useG) grad[L.g + i] += gP * (1 - sig);
    if (useU) grad[L.u + i] += gP * sig;
  }
  return ce;
}
