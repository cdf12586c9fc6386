/**
 * Small distribution functions the psychometric tables need: the normal and
 * χ² tails (for Wilson–Hilferty z, Mantel–Haenszel and likelihood-ratio
 * p-values) and Benjamini–Hochberg adjustment.
 */

/** ln Γ(x) for x > 0 (Lanczos, g = 7, 9 terms; relative error < 1e-13). */
export function lnGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
    -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
    1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lnGamma(1 - x);
  const z = x - 1;
  let a = c[0];
  const t = z + 7.5;
  for (let k = 1; k < 9; k++) a += c[k] / (z + k);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Regularised upper incomplete gamma Q(a, x) = Γ(a, x) / Γ(a). */
export function gammaQ(a: number, x: number): number {
  if (!(x > 0)) return 1;
  const lead = -x + a * Math.log(x) - lnGamma(a);
  if (x < a + 1) {
    // Series for P(a, x).
    let sum = 1 / a;
    let term = sum;
    for (let n = 1; n < 500; n++) {
      term *= x / (a + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * 1e-15) break;
    }
    return Math.max(0, 1 - sum * Math.exp(lead));
  }
  // Continued fraction for Q(a, x) (modified Lentz).
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let n = 1; n < 500; n++) {
    const an = -n * (n - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-15) break;
  }
  return Math.min(1, Math.exp(lead) * h);
}

/** P(χ²_df > x). */
export function chi2Sf(x: number, df: number): number {
  if (!Number.isFinite(x)) return x > 0 ? 0 : 1;
  return df > 0 ? gammaQ(df / 2, Math.max(0, x) / 2) : 1;
}

/** P(Z > z) for a standard normal Z. */
export function normalSf(z: number): number {
  if (z < 0) return 1 - normalSf(-z);
  return 0.5 * gammaQ(0.5, (z * z) / 2);
}

/**
 * The largest model SD of a mean square that the Wilson–Hilferty z is given
 * for. The transform reads the mean square as χ²_ν/ν with ν = 2/q² degrees of
 * freedom; at q > 1 (ν < 2) that χ² is J-shaped, its mode at 0, and no power
 * of it is near normal: z stops being a test. In that regime the constant q/3
 * dominates and a mean square far below 1 gets a large positive z (the demo's
 * 18-cell items with near-certain predictions: outfit 0.082, q ≈ 16, z +5.5).
 * Such cells are few draws each with a tiny variance, so the mean square itself
 * is dominated by one or two of them.
 */
export const WH_MAX_Q = 1;

/**
 * Wilson–Hilferty standardisation of a mean square with model standard
 * deviation q: z = (MS^{1/3} − 1)(3/q) + q/3 (Wright & Masters, 1982; eRm's
 * itemfit.ppar, mirt's itemfit). NaN when q is not in (0, WH_MAX_Q].
 */
export function wilsonHilferty(ms: number, q: number): number {
  if (!(q > 0) || q > WH_MAX_Q || !Number.isFinite(ms)) return NaN;
  return (Math.cbrt(ms) - 1) * (3 / q) + q / 3;
}

/** Benjamini–Hochberg adjusted p-values (NaN stays NaN and is not counted). */
export function bhAdjust(p: readonly number[]): number[] {
  const idx = p.map((_, q) => q).filter((q) => Number.isFinite(p[q]));
  idx.sort((x, y) => p[x] - p[y]);
  const out = p.map(() => NaN);
  let run = 1;
  for (let r = idx.length - 1; r >= 0; r--) {
    run = Math.min(run, (p[idx[r]] * idx.length) / (r + 1));
    out[idx[r]] = run;
  }
  return out;
}

/** Mean and population variance of the finite values. */
export function meanVar(x: ArrayLike<number>): { mean: number; variance: number; n: number } {
  let n = 0;
  let s = 0;
  for (let q = 0; q < x.length; q++)
    if (Number.isFinite(x[q])) {
      s += x[q];
      n++;
    }
  const mean = n ? s / n : NaN;
  let v = 0;
  for (let q = 0; q < x.length; q++) if (Number.isFinite(x[q])) v += (x[q] - mean) ** 2;
  return { mean, variance: n ? v / n : NaN, n };
}
