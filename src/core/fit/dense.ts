/**
 * Small dense linear algebra on row-major Float64Arrays, for the Laplace
 * uncertainty (uncertainty/laplace.ts): Cholesky, SPD inverse, a general inverse with
 * partial pivoting, and the projection Z (Zᵀ S Z)⁻¹ Zᵀ onto the null space of
 * linear constraints by Householder reflections. No allocation-free heroics:
 * the matrices here are at most a few thousand wide.
 */

/**
 * In-place Cholesky A = L Lᵀ (lower triangle of `a` receives L; the strict
 * upper triangle is left as is). Returns false when a pivot is not positive.
 */
export function cholesky(a: Float64Array, n: number): boolean {
  for (let j = 0; j < n; j++) {
    let d = a[j * n + j];
    for (let k = 0; k < j; k++) d -= a[j * n + k] * a[j * n + k];
    if (!(d > 0)) return false;
    const l = Math.sqrt(d);
    a[j * n + j] = l;
    for (let i = j + 1; i < n; i++) {
      let s = a[i * n + j];
      const ri = i * n;
      const rj = j * n;
      for (let k = 0; k < j; k++) s -= a[ri + k] * a[rj + k];
      a[ri + j] = s / l;
    }
  }
  return true;
}

/**
 * Cholesky of a copy of the SPD matrix `a`; when it fails, retries with a
 * ridge 1e-10, 1e-8, ... × (largest diagonal) added. Returns L (lower, n × n,
 * upper part zero) and the ridge used (0 normally).
 */
export function cholRidge(a: Float64Array, n: number): { L: Float64Array; ridge: number } {
  let dmax = 0;
  for (let i = 0; i < n; i++) dmax = Math.max(dmax, Math.abs(a[i * n + i]));
  for (let t = 0; t < 8; t++) {
    const ridge = t === 0 ? 0 : 10 ** (-12 + 2 * t) * (dmax || 1);
    const L = Float64Array.from(a);
    for (let i = 0; i < n; i++) L[i * n + i] += ridge;
    if (cholesky(L, n)) {
      for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) L[i * n + j] = 0;
      return { L, ridge };
    }
  }
  throw new Error('uncertainty: a curvature block is not positive definite, even with a ridge');
}

/** Solves L X = B in place (B is n × m row-major), L lower from `cholRidge`. */
export function forwardSolve(L: Float64Array, n: number, b: Float64Array, m: number): void {
  for (let i = 0; i < n; i++) {
    const li = L[i * n + i];
    for (let c = 0; c < m; c++) {
      let s = b[i * m + c];
      for (let k = 0; k < i; k++) s -= L[i * n + k] * b[k * m + c];
      b[i * m + c] = s / li;
    }
  }
}

/** Inverse of an SPD matrix through `cholRidge`. */
export function invSPD(a: Float64Array, n: number): { inv: Float64Array; ridge: number } {
  const { L, ridge } = cholRidge(a, n);
  // X = L⁻¹ (forward solve on the identity), inverse = Xᵀ X.
  const X = new Float64Array(n * n);
  for (let i = 0; i < n; i++) X[i * n + i] = 1;
  forwardSolve(L, n, X, n);
  const inv = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j <= i; j++) {
      let s = 0;
      for (let k = i; k < n; k++) s += X[k * n + i] * X[k * n + j];
      inv[i * n + j] = s;
      inv[j * n + i] = s;
    }
  return { inv, ridge };
}

/** Inverse of a general square matrix by Gauss–Jordan with partial pivoting. */
export function invGeneral(a: Float64Array, n: number): Float64Array {
  const m = Float64Array.from(a);
  const inv = new Float64Array(n * n);
  for (let i = 0; i < n; i++) inv[i * n + i] = 1;
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r * n + c]) > Math.abs(m[p * n + c])) p = r;
    if (m[p * n + c] === 0) throw new Error('uncertainty: singular border matrix');
    if (p !== c)
      for (let k = 0; k < n; k++) {
        [m[p * n + k], m[c * n + k]] = [m[c * n + k], m[p * n + k]];
        [inv[p * n + k], inv[c * n + k]] = [inv[c * n + k], inv[p * n + k]];
      }
    const d = m[c * n + c];
    for (let k = 0; k < n; k++) {
      m[c * n + k] /= d;
      inv[c * n + k] /= d;
    }
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r * n + c];
      if (f === 0) continue;
      for (let k = 0; k < n; k++) {
        m[r * n + k] -= f * m[c * n + k];
        inv[r * n + k] -= f * inv[c * n + k];
      }
    }
  }
  return inv;
}

/** M ← H M H for the symmetric n × n M and H = I − β v vᵀ. */
function reflectBoth(M: Float64Array, n: number, v: Float64Array, beta: number): void {
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let k = 0; k < n; k++) s += M[i * n + k] * v[k];
    w[i] = s;
  }
  let vw = 0;
  for (let i = 0; i < n; i++) vw += v[i] * w[i];
  const g = beta * beta * vw;
  for (let i = 0; i < n; i++) {
    const bvi = beta * v[i];
    const bwi = beta * w[i];
    for (let k = 0; k < n; k++) M[i * n + k] += -bvi * w[k] - bwi * v[k] + g * v[i] * v[k];
  }
}

/**
 * Z (Zᵀ S Z)⁻¹ Zᵀ for the symmetric n × n S, where the columns of Z are an
 * orthonormal basis of {x : Aᵀ x = 0} and A is n × r (row-major, full column
 * rank). Z comes from the Householder QR of A: Q = H_0 ⋯ H_{r−1}, Z = Q[:, r:].
 * Returns the covariance and the ridge `invSPD` needed (0 normally).
 */
export function nullSpaceInverse(
  S: Float64Array,
  n: number,
  A: Float64Array,
  r: number,
): { cov: Float64Array; ridge: number } {
  const R = Float64Array.from(A);
  const vs: Float64Array[] = [];
  const betas: number[] = [];
  for (let t = 0; t < r; t++) {
    let norm = 0;
    for (let i = t; i < n; i++) norm += R[i * r + t] ** 2;
    norm = Math.sqrt(norm);
    const v = new Float64Array(n);
    const alpha = R[t * r + t] > 0 ? -norm : norm;
    for (let i = t; i < n; i++) v[i] = R[i * r + t];
    v[t] -= alpha;
    let vv = 0;
    for (let i = t; i < n; i++) vv += v[i] * v[i];
    const beta = vv > 0 ? 2 / vv : 0;
    for (let c = t; c < r; c++) {
      let s = 0;
      for (let i = t; i < n; i++) s += v[i] * R[i * r + c];
      for (let i = t; i < n; i++) R[i * r + c] -= beta * s * v[i];
    }
    vs.push(v);
    betas.push(beta);
  }
  const T = Float64Array.from(S);
  for (let t = 0; t < r; t++) reflectBoth(T, n, vs[t], betas[t]);
  const m = n - r;
  const B = new Float64Array(m * m);
  for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) B[i * m + j] = T[(i + r) * n + (j + r)];
  const { inv, ridge } = invSPD(B, m);
  const X = new Float64Array(n * n);
  for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) X[(i + r) * n + (j + r)] = inv[i * m + j];
  for (let t = r - 1; t >= 0; t--) reflectBoth(X, n, vs[t], betas[t]);
  return { cov: X, ridge };
}
