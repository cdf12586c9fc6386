/** Small seeded random number generator (mulberry32) for deterministic fits and simulations. */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Standard normal (Box–Muller). */
  normal(): number;
  /** Integer in [0, n). */
  int(n: number): number;
  /** Gamma(shape, 1) via Marsaglia–Tsang. */
  gamma(shape: number): number;
}

export function createRng(seed: number): Rng {
  let state = seed >>> 0 || 0x9e3779b9;
  let spare: number | null = null;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const normal = () => {
    if (spare !== null) {
      const s = spare;
      spare = null;
      return s;
    }
    let u = 0;
    while (u === 0) u = next();
    const v = next();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };
  const gamma = (shape: number): number => {
    if (shape < 1) return gamma(shape + 1) * Math.pow(next() || 1e-300, 1 / shape);
    const d = shape - 1 / 3;
    const c = 1 / Math.sqrt(9 * d);
    for (;;) {
      const x = normal();
      const v0 = 1 + c * x;
      if (v0 <= 0) continue;
      const v = v0 * v0 * v0;
      const u = next();
      if (Math.log(u || 1e-300) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
    }
  };
  return { next, normal, int: (n) => Math.floor(next() * n), gamma };
}

/** Fisher–Yates shuffle of 0..n-1. */
export function permutation(n: number, rng: Rng): Uint32Array {
  const p = new Uint32Array(n);
  for (let i = 0; i < n; i++) p[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const k = rng.int(i + 1);
    const t = p[i];
    p[i] = p[k];
    p[k] = t;
  }
  return p;
}
