/** Correlations used across evaluation: Pearson, Spearman (average ranks), Kendall τ-b. */

export function pearson(x: ArrayLike<number>, y: ArrayLike<number>): number {
  const n = x.length;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i];
    my += y[i];
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : NaN;
}

/** Ranks 1..n with ties given their average rank. */
export function ranks(x: ArrayLike<number>): Float64Array {
  const idx = Array.from({ length: x.length }, (_, i) => i).sort((a, b) => x[a] - x[b]);
  const r = new Float64Array(x.length);
  for (let s = 0; s < idx.length;) {
    let e = s;
    while (e + 1 < idx.length && x[idx[e + 1]] === x[idx[s]]) e++;
    for (let q = s; q <= e; q++) r[idx[q]] = (s + e) / 2 + 1;
    s = e + 1;
  }
  return r;
}

export function spearman(x: ArrayLike<number>, y: ArrayLike<number>): number {
  return pearson(ranks(x), ranks(y));
}

/** Kendall's τ-b (O(n²); fine for the hundreds of LLMs this sees). */
export function kendall(x: ArrayLike<number>, y: ArrayLike<number>): number {
  let c = 0;
  let d = 0;
  let tx = 0;
  let ty = 0;
  for (let i = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++) {
      const a = Math.sign(x[i] - x[j]);
      const b = Math.sign(y[i] - y[j]);
      if (a === 0 && b === 0) continue;
      if (a === 0) tx++;
      else if (b === 0) ty++;
      else if (a === b) c++;
      else d++;
    }
  }
  const denom = Math.sqrt((c + d + tx) * (c + d + ty));
  return denom > 0 ? (c - d) / denom : NaN;
}
