/** The paired t of two matched samples. */

/**
 * The paired t of x − y: the mean difference over its standard error,
 * mean / (sd / √n) with sd on n − 1 degrees of freedom; ±Infinity where the
 * differences are one nonzero constant, 0 where they are all 0.
 */
export function pairedT(x: readonly number[], y: readonly number[]): number {
  const n = x.length;
  const d = x.map((v, k) => v - y[k]);
  const mean = d.reduce((s, v) => s + v, 0) / n;
  const sd = Math.sqrt(d.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1));
  return sd > 0 ? mean / (sd / Math.sqrt(n)) : mean > 0 ? Infinity : mean < 0 ? -Infinity : 0;
}
