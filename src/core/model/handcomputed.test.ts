/**
 * Checks of eq. 10 (b̃) and eq. 13 (the LLM-NRM response distribution) against
 * numbers computed outside this code base. The simulator and the fitting code
 * share `btilde` and `nominalProbs`, so a recovery test cannot catch a wrong
 * formula in them; these literals can.
 *
 * The expected values were computed once with this stand-alone python3 script
 * (plain `math`, written from the paper, not from this code) and pasted here:
 *
 *   from math import exp, log
 *   def bt(a, c, g, eps=0.05):           # eq. 10-11 with the smooth guard
 *       ds = [k for k in range(len(a)) if k != g]
 *       Z = sum(exp(c[k]) for k in ds); w = {k: exp(c[k]) / Z for k in ds}
 *       num = log(Z) - c[g]; den = a[g] - sum(w[k] * a[k] for k in ds)
 *       return num, den, num / den, num * den / (den * den + eps * eps)
 *   def probs(a, c, g, th, s, d, r, w0, ka):   # eq. 6, 7, 13
 *       b = bt(a, c, g)[3]
 *       G = 1 / (1 + exp(-(w0 - ka * (th - b))))
 *       z = [(1 - G) * s * (a[k] * th + c[k] + d[k]) + G * r[k] for k in range(len(a))]
 *       Z = sum(exp(x) for x in z); return G, [exp(x) / Z for x in z]
 */
import { describe, expect, it } from 'vitest';
import { nominalCE } from '../engines/fusedNominal';
import type { Cells } from './cells';
import { btilde } from './btilde';
import { margin, marginSlope } from './gate';
import { nominalProbs } from './nominal';
import { simulateNominal } from './simulate';
import { BTILDE_EPS, nominalFlags, nominalLayout } from './types';

const TOL = 1e-12;
const close = (got: number, want: number, tol = TOL) =>
  expect(Math.abs(got - want)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(want)));

// One K = 3 item, key = option 1 (B), centred a and c.
const A = [-0.4, 1.1, -0.7];
const C = [0.3, -0.5, 0.2];
const KEY = 1;
// One LLM.
const THETA = 0.7;
const S = 1.3;
const DELTA = [0.2, -0.1, -0.1];
const RHO = [0.5, -0.2, -0.3];
const W0 = -2;
const KAPPA = 1;

/** Natural parameters of one LLM × one item (Kmax = 3). */
function tinyNat(a: number[], theta: number, s: number, w0: number, kappa: number) {
  const L = nominalLayout(1, 1, 3);
  const nat = new Float64Array(L.size);
  nat[L.theta] = theta;
  nat[L.s] = s;
  nat.set(DELTA, L.delta);
  nat.set(RHO, L.rho);
  nat.set(a, L.a);
  nat.set(C, L.c);
  nat[L.w0] = w0;
  nat[L.kappa] = kappa;
  return { L, nat };
}

/** One LLM on one 3-option item, observed as (0.5, 0.25, 0.25) with the key's mass 0.25. */
function oneCell(): Cells {
  return {
    J: 1,
    I: 1,
    Kmax: 3,
    n: 1,
    cellJ: Uint32Array.of(0),
    cellI: Uint32Array.of(0),
    target: Float32Array.of(0.5, 0.25, 0.25),
    correct: Float32Array.of(0.25),
    nOptions: Uint8Array.of(3),
    key: Uint8Array.of(KEY),
  };
}

describe('eq. 10: the difficulty index b̃, by hand', () => {
  const w = new Float64Array(3);
  // num = log(e^0.3 + e^0.2) + 0.5 = 1.4443966600735711 for all three cases (same c).
  it('uses the guard ε = 0.05 (the literals below assume it)', () => {
    expect(BTILDE_EPS).toBe(0.05);
  });

  it('a discriminating key: den = 1.6425…, b̃ = num·den/(den² + ε²) ≈ the paper’s num/den', () => {
    const b = btilde(A, C, 0, 3, KEY, w);
    close(b, 0.8785716481021927);
    // The paper's unguarded ratio is 0.8793857956791192: within 0.1% here.
    expect(Math.abs(b - 0.8793857956791192)).toBeLessThan(1e-3);
  });

  it('a near-flat key (den = 0.0393, inside the guard band): the guarded value, not the ratio 36.8', () => {
    const b = btilde([0.1, 0.03, -0.13], C, 0, 3, KEY, w);
    close(b, 14.031266738128187);
  });

  it('a key that falls with ability (den < 0): b̃ is negative', () => {
    const b = btilde([0.3, -0.2, -0.1], C, 0, 3, KEY, w);
    close(b, -4.541322309863344);
  });

  it('reads the item at its offset and ignores options beyond K', () => {
    const a = [9, 9, 9, ...A, 5];
    const c = [9, 9, 9, ...C, -5];
    close(btilde(a, c, 3, 3, KEY, w), 0.8785716481021927);
  });
});

describe('eq. 13: the full LLM-NRM response distribution, by hand', () => {
  // [a, θ, s, w0, κ], b̃, then G and p by hand.
  it.each([
    {
      name: 'with s, δ, ρ and the gate G (θ = 0.7, s = 1.3, w0 = −2, κ = 1)',
      args: [A, THETA, S, W0, KAPPA] as Parameters<typeof tinyNat>,
      bt: 0.8785716481021927,
      G: 0.13926257031616346,
      p: [0.432937216481542, 0.3713559322317941, 0.19570685128666393],
    },
    {
      name: 'with the gate mostly open (guarded b̃ = 14.03, θ = −1.2, s = 0.8, w0 = −0.5, κ = 0.1)',
      args: [[0.1, 0.03, -0.13], -1.2, 0.8, -0.5, 0.1] as Parameters<typeof tinyNat>,
      bt: 14.031266738128187,
      G: 0.7355811900054254,
      p: [0.49436466514891764, 0.23828012840756477, 0.2673552064435175],
    },
  ])('$name', ({ args, bt, G, p: want }) => {
    const { L, nat } = tinyNat(...args);
    const p = new Float64Array(3);
    close(nominalProbs(nat, L, nominalFlags('llmnrm', 'eq10'), 0, 0, 3, KEY, bt, p), G);
    close(p[0], want[0]);
    close(p[1], want[1]);
    close(p[2], want[2]);
  });

  it('reduces to Bock’s NRM without the LLM terms (nrm-soft ignores s, δ, ρ, w0, κ)', () => {
    const { L, nat } = tinyNat(A, THETA, S, W0, KAPPA);
    const p = new Float64Array(3);
    const G = nominalProbs(
      nat,
      L,
      nominalFlags('nrm-soft', 'eq10'),
      0,
      0,
      3,
      KEY,
      0.8785716481021927,
      p,
    );
    expect(G).toBe(0);
    close(p[0], 0.3314031999023552);
    close(p[1], 0.4255301318462726);
    close(p[2], 0.24306666825137216);
  });

  it('the fitting engine’s cross-entropy (its own implementation of eq. 13) matches by hand', () => {
    const { L, nat } = tinyNat(A, THETA, S, W0, KAPPA);
    const cells = oneCell();
    // −(0.5 log p_A + 0.25 log p_B + 0.25 log p_C) with p from the first case above.
    close(nominalCE(nat, null, L, nominalFlags('llmnrm', 'eq10'), cells), 1.0740142006068365);
  });

  it('the simulator’s noiseless output is eq. 13 at its own true parameters', () => {
    // An independent transcription of eq. 10, 7, 6 and 13 (no model code), applied to the simulator's truth.
    const { data, truth, layout: L } = simulateNominal({ J: 2, I: 3, K: 3, seed: 4 });
    for (let i = 0; i < 3; i++) {
      const a = [0, 1, 2].map((k) => truth[L.a + i * 3 + k]);
      const c = [0, 1, 2].map((k) => truth[L.c + i * 3 + k]);
      const g = data.key[i];
      const ds = [0, 1, 2].filter((k) => k !== g);
      const Z = ds.reduce((acc, k) => acc + Math.exp(c[k]), 0);
      const num = Math.log(Z) - c[g];
      const den = a[g] - ds.reduce((acc, k) => acc + (Math.exp(c[k]) / Z) * a[k], 0);
      const bt = (num * den) / (den * den + 0.05 * 0.05);
      for (let j = 0; j < 2; j++) {
        const th = truth[L.theta + j];
        const G = 1 / (1 + Math.exp(-(truth[L.w0] - truth[L.kappa] * (th - bt))));
        const z = [0, 1, 2].map(
          (k) =>
            (1 - G) * truth[L.s + j] * (a[k] * th + c[k] + truth[L.delta + j * 3 + k]) +
            G * truth[L.rho + j * 3 + k],
        );
        const e = z.map(Math.exp);
        const tot = e[0] + e[1] + e[2];
        // Observations are stored in float32.
        for (let k = 0; k < 3; k++)
          expect(Math.abs(data.obs[(j * 3 + i) * 3 + k] - e[k] / tot)).toBeLessThan(1e-7);
      }
    }
  });
});

/*
 * The margin gate (issue 27; model/gate.ts), against the same stand-alone
 * python3 script extended with eq. 8 (raw a, c: no s, δ):
 *
 *   def margin(a, c, g, th):                 # eq. 8 and its θ-derivative
 *       u = [a[k] * th + c[k] for k in range(len(a))]
 *       ds = [k for k in range(len(a)) if k != g]
 *       Z = sum(exp(u[k]) for k in ds); w = {k: exp(u[k]) / Z for k in ds}
 *       return u[g] - log(Z), a[g] - sum(w[k] * a[k] for k in ds)
 *   def probs_margin(a, c, g, th, s, d, r, w0, ka):
 *       f = margin(a, c, g, th)[0]
 *       G = 1 / (1 + exp(-(w0 - ka * f)))
 *       z = [(1 - G) * s * (a[k] * th + c[k] + d[k]) + G * r[k] for k in range(len(a))]
 *       Z = sum(exp(x) for x in z); return G, [exp(x) / Z for x in z]
 */
describe('eq. 8: the margin gate, by hand', () => {
  const w = new Float64Array(3);
  it('K = 2: f is the key’s utility minus the other’s, f′ = a_key − a_other', () => {
    // a = [0.5, −0.5], c = [0.2, −0.2], key A, θ = 1: f = (0.5 + 0.2) − (−0.5 − 0.2) = 1.4, f′ = 1.
    const a = [0.5, -0.5];
    const c = [0.2, -0.2];
    close(margin(a, c, 0, 2, 0, 1, w), 1.4);
    close(marginSlope(a, 0, 2, 0, w), 1);
  });

  it('K = 3 at θ = 0.7: f = 0.27 − log(e^0.02 + e^−0.29)', () => {
    // u = [0.02, 0.27, −0.29] (a θ + c), key B.
    close(margin(A, C, 0, 3, KEY, THETA, w), -0.30011188643871445);
    close(marginSlope(A, 0, 3, KEY, w), 1.626934421660386);
    // The distractor weights sum to 1, the key's is 0.
    close(w[0] + w[2], 1);
    expect(w[KEY]).toBe(0);
  });

  it('eq. 10 is its one-Newton-step linearisation at θ = 0 (unguarded ratio, not the guard)', () => {
    // f(0) = −num, f′(0) = den: b̃ = −f(0)/f′(0) = num/den = 0.8793857956791192 (above).
    const f0 = margin(A, C, 0, 3, KEY, 0, w);
    const d0 = marginSlope(A, 0, 3, KEY, w);
    close(-f0 / d0, 0.8793857956791192);
  });

  it.each([
    {
      name: 'θ = 0.7, s = 1.3, w0 = −2, κ = 1',
      args: [A, THETA, S, W0, KAPPA] as Parameters<typeof tinyNat>,
      G: 0.15447987866039353,
      p: [0.434497921324351, 0.36911064043716263, 0.19639143823848637],
    },
    {
      // Where eq. 10's denominator is 0.039 (b̃ guarded to 14.03): the margin has no ratio.
      name: 'a near-flat key, θ = −1.2, s = 0.8, w0 = −0.5, κ = 0.1',
      args: [[0.1, 0.03, -0.13], -1.2, 0.8, -0.5, 0.1] as Parameters<typeof tinyNat>,
      G: 0.41340701522432255,
      p: [0.46672652213992943, 0.2169302323107134, 0.3163432455493573],
    },
  ])('p and G with the margin gate: $name', ({ args, G, p: want }) => {
    const { L, nat } = tinyNat(...args);
    const p = new Float64Array(3);
    // b̃ is not read by the margin gate: a NaN there must not reach p.
    close(nominalProbs(nat, L, nominalFlags('llmnrm', 'margin'), 0, 0, 3, KEY, NaN, p), G);
    for (let k = 0; k < 3; k++) close(p[k], want[k]);
  });

  it('the fitting engine’s cross-entropy with the margin gate matches by hand', () => {
    const { L, nat } = tinyNat(A, THETA, S, W0, KAPPA);
    const cells = oneCell();
    // −(0.5 log p_A + 0.25 log p_B + 0.25 log p_C) with p from the first margin case.
    close(nominalCE(nat, null, L, nominalFlags('llmnrm', 'margin'), cells), 1.072858138876761);
  });
});
