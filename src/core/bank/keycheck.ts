/**
 * A likelihood check of an item's key against the observed responses: refit
 * the item's option parameters (a, c) with every LLM parameter held at the
 * fit, once with the key as given and once with the key moved to a candidate
 * option, and compare the cross-entropy of the item's observed cells.
 *
 * In the LLM-NRM the key enters the response distribution only through the
 * difficulty index b̃ (eq. 10) of the fallback gate (eq. 7): the key decides
 * for which LLMs fallback takes over. So this is evidence from the observed
 * cells only, at the LLMs' fitted θ, never an extrapolation. Models without the
 * fallback give a difference of exactly 0 (the key does not enter them).
 */
import type { Dataset } from '../data/types';
import { nominalCE } from '../engines/fusedNominal';
import type { FitJson, ItemResult } from '../fit/types';
import type { Cells } from '../model/cells';
import { argmaxAt } from '../model/cells';
import { isBinary, nominalFlags, nominalLayout, type NominalModel } from '../model/types';
import { gateOf, type GateForm } from '../model/gate';

/** One item's observed cells and the fitted LLM parameters, ready to refit (a, c). */
export interface ItemProblem {
  K: number;
  /** Natural parameters of a J × 1 problem (LLM terms from the fit). */
  nat: Float64Array;
  layout: ReturnType<typeof nominalLayout>;
  model: NominalModel;
  /** The fit's gate form (model/gate.ts). */
  gate: GateForm;
  cells: Cells;
}

/** Build the one-item problem of data item `i` (fit item `it`); null when no LLM of the fit answered it. */
export function itemProblem(
  fit: FitJson,
  ds: Dataset,
  i: number,
  it: ItemResult,
): ItemProblem | null {
  if (isBinary(fit.model) || !it.a || !it.c) return null;
  const model = fit.model as NominalModel;
  const gate = gateOf(fit);
  const flags = nominalFlags(model, gate);
  const K = it.nOptions;
  const Kmax = Math.max(fit.Kmax ?? ds.Kmax, K);
  const llmIndex = new Map(ds.llmIds.map((id, j) => [id, j]));
  const rows: { l: FitJson['llms'][number]; j: number }[] = [];
  for (const l of fit.llms) {
    const j = llmIndex.get(l.id);
    if (j !== undefined && ds.observed[j * ds.I + i]) rows.push({ l, j });
  }
  if (rows.length === 0) return null;
  const J = rows.length;
  const L = nominalLayout(J, 1, Kmax);
  const nat = new Float64Array(L.size);
  const target = new Float32Array(J * Kmax);
  rows.forEach(({ l, j }, q) => {
    nat[L.theta + q] = l.theta;
    nat[L.s + q] = l.s;
    for (let k = 0; k < Kmax; k++) {
      nat[L.delta + q * Kmax + k] = l.delta[k] ?? 0;
      nat[L.rho + q * Kmax + k] = l.rho[k] ?? 0;
    }
    const off = (j * ds.I + i) * ds.Kmax;
    if (flags.hardTargets) target[q * Kmax + argmaxAt(ds.obs, off, K)] = 1;
    else for (let k = 0; k < K; k++) target[q * Kmax + k] = ds.obs[off + k];
  });
  for (let k = 0; k < K; k++) {
    nat[L.a + k] = it.a[k];
    nat[L.c + k] = it.c[k];
  }
  nat[L.w0] = fit.global.w0;
  nat[L.kappa] = fit.global.kappa;
  const cells: Cells = {
    J,
    I: 1,
    Kmax,
    n: J,
    cellJ: Uint32Array.from(rows.map((_, q) => q)),
    cellI: new Uint32Array(J),
    target,
    correct: new Float32Array(J),
    nOptions: Uint8Array.of(K),
    key: Uint8Array.of(0),
  };
  return { K, nat, layout: L, model, gate, cells };
}

/** A refit: the cross-entropy reached and the (a, c) that reach it (a then c, K each). */
export interface Refit {
  ce: number;
  x: Float64Array;
}

/**
 * The smallest cross-entropy of the item's cells over its (a, c), with key `g`,
 * from `start` (default the fitted (a, c)). A small L-BFGS on the 2K free
 * values (centred inside).
 */
export function refitItem(p: ItemProblem, g: number, start?: Float64Array, maxIter = 200): Refit {
  const { K, layout: L, cells } = p;
  const flags = nominalFlags(p.model, p.gate);
  cells.key[0] = g;
  const nat = Float64Array.from(p.nat);
  const grad = new Float64Array(L.size);
  const n = 2 * K;
  const put = (x: Float64Array) => {
    let ma = 0;
    let mc = 0;
    for (let k = 0; k < K; k++) {
      ma += x[k] / K;
      mc += x[K + k] / K;
    }
    for (let k = 0; k < K; k++) {
      nat[L.a + k] = x[k] - ma;
      nat[L.c + k] = x[K + k] - mc;
    }
  };
  const f = (x: Float64Array, gx: Float64Array): number => {
    put(x);
    const v = nominalCE(nat, grad, L, flags, cells);
    let ga = 0;
    let gc = 0;
    for (let k = 0; k < K; k++) {
      ga += grad[L.a + k] / K;
      gc += grad[L.c + k] / K;
    }
    for (let k = 0; k < K; k++) {
      gx[k] = grad[L.a + k] - ga;
      gx[K + k] = grad[L.c + k] - gc;
    }
    return v;
  };
  let x = new Float64Array(n);
  if (start) x.set(start);
  else
    for (let k = 0; k < K; k++) {
      x[k] = p.nat[L.a + k];
      x[K + k] = p.nat[L.c + k];
    }
  let gx = new Float64Array(n);
  let fx = f(x, gx);
  const S: Float64Array[] = [];
  const Y: Float64Array[] = [];
  const d = new Float64Array(n);
  const xn = new Float64Array(n);
  const gn = new Float64Array(n);
  const dot = (u: Float64Array, v: Float64Array) => {
    let s = 0;
    for (let q = 0; q < n; q++) s += u[q] * v[q];
    return s;
  };
  for (let iter = 0; iter < maxIter; iter++) {
    // Two-loop recursion for d = −H g.
    d.set(gx);
    const al: number[] = [];
    for (let m = S.length - 1; m >= 0; m--) {
      const a = dot(S[m], d) / dot(Y[m], S[m]);
      al[m] = a;
      for (let q = 0; q < n; q++) d[q] -= a * Y[m][q];
    }
    if (S.length) {
      const last = S.length - 1;
      const h = dot(S[last], Y[last]) / dot(Y[last], Y[last]);
      for (let q = 0; q < n; q++) d[q] *= h;
    }
    for (let m = 0; m < S.length; m++) {
      const b = dot(Y[m], d) / dot(Y[m], S[m]);
      for (let q = 0; q < n; q++) d[q] += S[m][q] * (al[m] - b);
    }
    for (let q = 0; q < n; q++) d[q] = -d[q];
    let slope = dot(gx, d);
    if (!(slope < 0)) {
      for (let q = 0; q < n; q++) d[q] = -gx[q];
      slope = dot(gx, d);
      S.length = 0;
      Y.length = 0;
    }
    // Backtracking (Armijo).
    let t = 1;
    let fn = Infinity;
    for (let bt = 0; bt < 40; bt++) {
      for (let q = 0; q < n; q++) xn[q] = x[q] + t * d[q];
      fn = f(xn, gn);
      if (Number.isFinite(fn) && fn <= fx + 1e-4 * t * slope) break;
      t /= 2;
    }
    if (!(fn <= fx)) break;
    const s = new Float64Array(n);
    const y = new Float64Array(n);
    for (let q = 0; q < n; q++) {
      s[q] = xn[q] - x[q];
      y[q] = gn[q] - gx[q];
    }
    if (dot(s, y) > 1e-12) {
      S.push(s);
      Y.push(y);
      if (S.length > 8) {
        S.shift();
        Y.shift();
      }
    }
    const change = fx - fn;
    [x, gx] = [Float64Array.from(xn), Float64Array.from(gn)];
    fx = fn;
    if (change <= 1e-10 * Math.max(1, Math.abs(fx)) || Math.sqrt(dot(gx, gx)) < 1e-7) break;
  }
  return { ce: fx, x };
}

/**
 * How much better the item's observed cells fit with `d` as the key than with
 * `g` (cross-entropy with g minus with d, nats; > 0 favours d). Each key's
 * refit starts from the fitted (a, c) and again from the other key's
 * optimum, so a poor start (b̃ is not convex in a, c) does not decide it.
 */
export function keySwapGain(p: ItemProblem, g: number, d: number): number {
  const rg = refitItem(p, g);
  const rd = refitItem(p, d);
  const ceG = Math.min(rg.ce, refitItem(p, g, rd.x).ce);
  const ceD = Math.min(rd.ce, refitItem(p, d, rg.x).ce);
  return ceG - ceD;
}
