/** Numerically safe scalar helpers shared by the core. */

export function sigmoid(x: number): number {
  return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
}

/** softplus(x) = log(1 + e^x), without overflow. */
export function softplus(x: number): number {
  return x > 30 ? x : Math.log1p(Math.exp(x));
}

/** Inverse of softplus for y > 0. */
export function softplusInv(y: number): number {
  return y > 30 ? y : Math.log(Math.expm1(y));
}

export function logit(p: number): number {
  return Math.log(p / (1 - p));
}

/** Mean and population sd of x (NaN-free input). */
export function meanSd(x: ArrayLike<number>): { mean: number; sd: number } {
  let m = 0;
  for (let i = 0; i < x.length; i++) m += x[i];
  m /= x.length || 1;
  let v = 0;
  for (let i = 0; i < x.length; i++) v += (x[i] - m) ** 2;
  return { mean: m, sd: Math.sqrt(v / (x.length || 1)) };
}
