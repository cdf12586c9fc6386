/** Numeric comparisons shared by the tests (not used by the app). */

/** Max-norm distance relative to the max-norm of `ref`: max_q |a_q − ref_q| / max_q |ref_q|. */
export function relMax(a: Float64Array, ref: Float64Array): number {
  let d = 0;
  let m = 0;
  for (let q = 0; q < ref.length; q++) {
    d = Math.max(d, Math.abs(a[q] - ref[q]));
    m = Math.max(m, Math.abs(ref[q]));
  }
  return d / m;
}
