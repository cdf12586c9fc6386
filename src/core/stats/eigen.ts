/**
 * Symmetric eigen-decomposition for the small curvature blocks (an item's
 * 2K × 2K, an LLM's, the gate's) and their floored inverse: what L-BFGS's
 * block-diagonal H0 (fit/blockInverse.ts) is made of, whether the blocks were
 * probed (fit/blocks.ts) or swept exactly (engines/curvature.ts).
 */

/**
 * The symmetric n × n A (row-major, destroyed) into its eigenvectors V at
 * data[o ..] and floored inverse eigenvalues 1/|λ| at data[o + n² ..]. Each
 * null direction u is first made an eigenvector with eigenvalue dmax (the
 * largest diagonal entry; `zeroShift` where that is 0): A += dmax·uuᵀ (A u ≈ 0
 * there), so the inverse does not amplify noise along it.
 */
export function floorInverse(
  A: Float64Array,
  n: number,
  nulls: Int32Array[],
  data: Float64Array,
  o: number,
  zeroShift: number,
): void {
  let dmax = 0;
  for (let r = 0; r < n; r++) dmax = Math.max(dmax, Math.abs(A[r * n + r]));
  for (const u of nulls) {
    const w = (dmax || zeroShift) / u.length;
    for (const r of u) for (const c of u) A[r * n + c] += w;
  }
  const V = data.subarray(o, o + n * n);
  const lam = data.subarray(o + n * n, o + n * n + n);
  jacobiEigen(A, n, V, lam);
  let lmax = 0;
  for (let k = 0; k < n; k++) lmax = Math.max(lmax, Math.abs(lam[k]));
  const floor = Math.max(lmax * 1e-6, 1e-12);
  for (let k = 0; k < n; k++) lam[k] = 1 / Math.max(Math.abs(lam[k]), floor);
}

/**
 * Cyclic Jacobi eigen-decomposition of the symmetric n × n A (row-major,
 * destroyed): eigenvalues into lam, eigenvectors into V's columns (V[r + k·n]).
 */
export function jacobiEigen(A: Float64Array, n: number, V: Float64Array, lam: Float64Array): void {
  V.fill(0);
  for (let k = 0; k < n; k++) V[k * n + k] = 1;
  for (let sweep = 0; sweep < 50; sweep++) {
    let off = 0;
    let diag = 0;
    for (let r = 0; r < n; r++) {
      diag += A[r * n + r] * A[r * n + r];
      for (let c = r + 1; c < n; c++) off += A[r * n + c] * A[r * n + c];
    }
    if (off <= 1e-30 * diag || off === 0) break;
    for (let p = 0; p < n; p++)
      for (let q = p + 1; q < n; q++) {
        const apq = A[p * n + q];
        if (apq === 0) continue;
        const theta = (A[q * n + q] - A[p * n + p]) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = A[k * n + p];
          const akq = A[k * n + q];
          A[k * n + p] = c * akp - s * akq;
          A[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = A[p * n + k];
          const aqk = A[q * n + k];
          A[p * n + k] = c * apk - s * aqk;
          A[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = V[p * n + k];
          const vkq = V[q * n + k];
          V[p * n + k] = c * vkp - s * vkq;
          V[q * n + k] = s * vkp + c * vkq;
        }
      }
  }
  for (let k = 0; k < n; k++) lam[k] = A[k * n + k];
}
