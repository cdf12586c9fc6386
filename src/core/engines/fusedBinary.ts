import type { Cells } from '../model/cells';
import { softplus } from '../model/math';
import type { BinaryLayout, BinaryModel } from '../model/types';

/**
 * Cross-entropy of the binary family on correctness and its analytic gradient:
 *   P = g + (u − g) σ(a θ + d),  Q = 1 − P = (1 − u) + (u − g) σ(−(a θ + d)),
 *   CE = −Σ [y log P + (1 − y) log Q].
 * log P and log Q are formed without cancellation (log σ(x) = −softplus(−x)), so
 * a steep item far from its difficulty keeps a finite loss and a non-zero
 * gradient instead of a clamped, flat one that stalls the optimiser.
 * 1PL reads one shared slope from a[0]; 2PL fixes g = 0, u = 1; 3PL fixes u = 1.
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
    const x = a * theta + nat[L.d + i];
    const g = useG ? nat[L.g + i] : 0;
    const u = useU ? nat[L.u + i] : 1;
    const lsp = -softplus(-x); // log σ(x)
    const lsm = -softplus(x); // log σ(−x)
    const sp = Math.exp(lsp);
    const sm = Math.exp(lsm);
    const w = u - g;
    // log P and log Q; each exact form applies where the other term vanishes.
    const logP = g === 0 ? Math.log(w) + lsp : Math.log(g + w * sp);
    const logQ = u === 1 ? Math.log(w) + lsm : Math.log(1 - u + w * sm);
    ce -= y * logP + (1 - y) * logQ;
    if (!grad) continue;
    // ∂P/∂x = w σ(x) σ(−x), divided by P and by Q; the exact forms cancel the
    // vanishing factor where g = 0 (P = w σ(x)) or u = 1 (Q = w σ(−x)).
    const dPx_P = g === 0 ? sm : (w * sp * sm) / Math.exp(logP);
    const dPx_Q = u === 1 ? sp : (w * sp * sm) / Math.exp(logQ);
    const gx = -y * dPx_P + (1 - y) * dPx_Q;
    grad[L.theta + j] += gx * a;
    grad[ia] += gx * theta;
    grad[L.d + i] += gx;
    // ∂P/∂g = σ(−x) = −∂Q/∂g;  ∂P/∂u = σ(x) = −∂Q/∂u.
    if (useG) grad[L.g + i] += sm * (-y / Math.exp(logP) + (1 - y) / Math.exp(logQ));
    if (useU) grad[L.u + i] += sp * (-y / Math.exp(logP) + (1 - y) / Math.exp(logQ));
  }
  return ce;
}
