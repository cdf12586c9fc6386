import { BTILDE_EPS } from './types';

/**
 * Item difficulty index b̃ (paper eq. 10–11) from centred option parameters
 * a[off..off+K), c[off..off+K) with key g:
 *   num = log Σ_{k≠g} exp(c_k) − c_g,   den = a_g − Σ_{k≠g} w_k a_k,
 *   w_k = softmax over distractors of c.
 * The paper divides num / den, which explodes when den → 0 (an item whose key
 * does not discriminate at θ = 0). A hard clamp makes b̃ jump when den changes
 * sign, so we use the smooth form b̃ = num · den / (den² + ε²): equal to num/den
 * for |den| ≫ ε, bounded by |num| / (2ε), and 0 at den = 0. ε = BTILDE_EPS.
 *
 * When `grad` is given, `gb · ∂b̃/∂a` and `gb · ∂b̃/∂c` are added into
 * ga[off+k], gc[off+k]. `w` is scratch of length >= K.
 */
export function btilde(
  a: ArrayLike<number>,
  c: ArrayLike<number>,
  off: number,
  K: number,
  g: number,
  w: Float64Array,
  grad?: { gb: number; ga: Float64Array; gc: Float64Array; gaOff: number; gcOff: number },
): number {
  let m = -Infinity;
  for (let k = 0; k < K; k++) if (k !== g && c[off + k] > m) m = c[off + k];
  let z = 0;
  for (let k = 0; k < K; k++) {
    w[k] = k === g ? 0 : Math.exp(c[off + k] - m);
    z += w[k];
  }
  let abar = 0;
  for (let k = 0; k < K; k++) {
    w[k] /= z;
    abar += w[k] * a[off + k];
  }
  const num = m + Math.log(z) - c[off + g];
  const den = a[off + g] - abar;
  const e2 = BTILDE_EPS * BTILDE_EPS;
  const q = den * den + e2;
  const h = den / q;
  if (grad && grad.gb !== 0) {
    const gnum = grad.gb * h;
    const gden = (grad.gb * num * (e2 - den * den)) / (q * q);
    for (let k = 0; k < K; k++) {
      if (k === g) {
        grad.gc[grad.gcOff + k] -= gnum;
        grad.ga[grad.gaOff + k] += gden;
      } else {
        grad.gc[grad.gcOff + k] += gnum * w[k] - gden * w[k] * (a[off + k] - abar);
        grad.ga[grad.gaOff + k] -= gden * w[k];
      }
    }
  }
  return num * h;
}
