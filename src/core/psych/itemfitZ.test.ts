/**
 * Infit/outfit and their Wilson–Hilferty z on cells computed by hand, with
 * eRm's formulas (itemfit.ppar): outfit = mean z², infit = Σ sq / Σ W,
 * q²_out = Σ(C/W²)/n² − 1/n, q²_in = Σ(C − W²)/(ΣW)², C = W(1 − 3W) for a
 * binary cell, t = (MSQ^(1/3) − 1)(3/q) + q/3.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { aggregate } from './itemfit';
import type { CellResiduals } from './residuals';
import { wilsonHilferty, WH_MAX_Q } from './stats';

/** One group of binary cells: P(correct) and the observed 0/1. */
function binaryCells(P: number[], x: number[]): CellResiduals {
  const n = P.length;
  const W = P.map((p) => p * (1 - p));
  return {
    kind: 'binary',
    n,
    cellJ: new Uint32Array(n),
    cellI: new Uint32Array(n),
    sq: Float64Array.from(P, (p, q) => (x[q] - p) ** 2),
    expected: Float64Array.from(W),
    variance: Float64Array.from(W, (w) => w * (1 - 4 * w)),
  };
}

describe('Wilson–Hilferty z of infit and outfit, by hand', () => {
  it('four cells: P = .5 .8 .3 .9, x = 1 0 0 1', () => {
    // W = .25 .16 .21 .09; sq = .25 .64 .09 .01; Var = W(1 − 4W) = 0 .0576 .0336 .0576.
    // outfit = (1 + 4 + 0.428571 + 0.111111)/4 = 1.384921; infit = .99/.71 = 1.394366.
    // q_out = √((0 + 2.25 + 0.761905 + 7.111111)/16) = 0.795417;
    // q_in = √(.1488/.5041) = 0.543304.
    // z_out = (1.384921^(1/3) − 1)·3/0.795417 + 0.795417/3 = 0.697584;
    // z_in = (1.394366^(1/3) − 1)·3/0.543304 + 0.543304/3 = 0.828177.
    const [s] = aggregate(binaryCells([0.5, 0.8, 0.3, 0.9], [1, 0, 0, 1]), new Uint32Array(4), 1);
    expect(s.outfit).toBeCloseTo(1.3849206, 6);
    expect(s.infit).toBeCloseTo(1.3943662, 6);
    expect(s.z_outfit).toBeCloseTo(0.6975837, 6);
    expect(s.z_infit).toBeCloseTo(0.8281772, 6);
    expect(s.n).toBe(4);
  });

  it('a mean square well below 1 has a negative z', () => {
    // (0.082^(1/3) − 1)·3/0.5 + 0.5/3 = (0.434448 − 1)·6 + 0.166667 = −3.226644.
    expect(wilsonHilferty(0.082, 0.5)).toBeCloseTo(-3.2266444, 6);
    for (const q of [0.05, 0.2, 0.5, WH_MAX_Q]) expect(wilsonHilferty(0.5, q)).toBeLessThan(0);
  });

  it('no z where q > 1 (ν = 2/q² < 2): near-certain cells whose mean square is near 0', () => {
    // Four cells at P = .999, all correct: W = 0.000999, Var/W² = 1/W − 4 ≈ 997,
    // q_out = √(4 · 997)/4 ≈ 15.8. The old z was 15.8/3 − 3(1 − 0.001^(1/3))/15.8 ≈ +5.1
    // beside an outfit of 0.001.
    const [s] = aggregate(
      binaryCells([0.999, 0.999, 0.999, 0.999], [1, 1, 1, 1]),
      new Uint32Array(4),
      1,
    );
    expect(s.outfit).toBeCloseTo(0.001 / 0.999, 9);
    expect(s.z_outfit).toBeNaN();
    expect(s.z_infit).toBeNaN();
    expect(wilsonHilferty(0.082, 16)).toBeNaN();
  });
});

/**
 * The same formulas against eRm itself, on eRm's own fitted probabilities (so
 * the estimators do not enter): fixtures/erm-wh.json was written by this R
 * script (R 4.2.2, eRm 1.0.2, Debian's r-cran-erm):
 *
 *   library(eRm); set.seed(31); J <- 60; I <- 8
 *   theta <- rnorm(J); beta <- seq(-1.5, 1.5, length.out = I)
 *   X <- matrix(rbinom(J * I, 1, plogis(outer(theta, beta, "-"))), J, I)
 *   X <- X[rowSums(X) > 0 & rowSums(X) < I, ]
 *   pp <- person.parameter(RM(X)); P <- pmat(pp); f <- itemfit(pp)
 *   # x = X, p = P, erm = f$i.outfitMSQ, f$i.infitMSQ, f$i.outfitZ, f$i.infitZ
 *
 * All 8 items have q < 1, so every z is defined. Tolerance 1e-9 (P was written
 * with 12 significant digits).
 */
describe('against eRm 1.0.2 itemfit on its own probabilities', () => {
  const fx = JSON.parse(
    readFileSync(new URL('./fixtures/erm-wh.json', import.meta.url), 'utf8'),
  ) as {
    x: number[][];
    p: number[][];
    erm: { item: string; outfit: number; infit: number; zOutfit: number; zInfit: number }[];
  };
  it('infit, outfit and both z agree to 1e-9', () => {
    const I = fx.erm.length;
    const P = fx.x.flatMap((row, j) => row.map((_, i) => fx.p[j][i]));
    const x = fx.x.flatMap((row) => row);
    const r = binaryCells(P, x);
    const group = Uint32Array.from(x, (_, q) => q % I);
    const ours = aggregate(r, group, I);
    const worst = { outfit: 0, infit: 0, zOutfit: 0, zInfit: 0 };
    fx.erm.forEach((e, i) => {
      worst.outfit = Math.max(worst.outfit, Math.abs(ours[i].outfit - e.outfit));
      worst.infit = Math.max(worst.infit, Math.abs(ours[i].infit - e.infit));
      worst.zOutfit = Math.max(worst.zOutfit, Math.abs(ours[i].z_outfit - e.zOutfit));
      worst.zInfit = Math.max(worst.zInfit, Math.abs(ours[i].z_infit - e.zInfit));
    });
    console.log('eRm z cross-check, largest |difference|', JSON.stringify(worst));
    for (const v of Object.values(worst)) expect(v).toBeLessThan(1e-9);
  });
});
