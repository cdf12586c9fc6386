import { describe, expect, it } from 'vitest';
import type { GateForm } from '../../model/gate';
import type { Problem } from '../../engines/types';
import { buildCells } from '../../model/cells';
import { allBtilde, nominalProbs } from '../../model/nominal';
import { simulateNominal } from '../../model/simulate';
import { binaryLayout, nominalFlags, nominalLayout, type NominalModel } from '../../model/types';
import { nullSpaceInverse } from '../dense';
import { laplaceSE } from './laplace';
import { addContrastPrior, sweep } from './assemble';
import {
  binaryCell,
  cellScratch,
  helmert,
  itemPre,
  nominalCell,
  reducedLayout,
  type Reduced,
} from './cells';
import { constraintMatrix, personCurvatureExtras } from './prior';
import { itemBootstrap, ratioSummary } from '../bootstrap';
import { createRng } from '../../model/rng';

type NomProblem = Extract<Problem, { kind: 'nominal' }>;

function nominalProblem(
  model: NominalModel,
  J: number,
  I: number,
  seed: number,
  observe?: (j: number, i: number) => boolean,
  gate: GateForm = 'eq10',
) {
  const sim = simulateNominal({ J, I, seed, model, concentration: 50 });
  const ds = sim.data;
  if (observe)
    for (let j = 0; j < J; j++)
      for (let i = 0; i < I; i++) ds.observed[j * I + i] = observe(j, i) ? 1 : 0;
  const flags = nominalFlags(model, gate);
  const problem: NomProblem = {
    kind: 'nominal',
    flags,
    layout: nominalLayout(J, I, ds.Kmax),
    cells: buildCells(ds, flags.hardTargets),
  };
  return { problem, nat: Float64Array.from(sim.truth), ds };
}

/** Nominal prior precision like the default's (θ 1, log s 1/0.3², δ 1/0.4², ρ 1, a, c 1). */
function nominalPrec(p: NomProblem): Float64Array {
  const L = p.layout;
  const prec = new Float64Array(L.size);
  prec.fill(1, L.theta, L.theta + L.J);
  prec.fill(1 / 0.09, L.s, L.s + L.J);
  prec.fill(1 / 0.16, L.delta, L.rho);
  prec.fill(1, L.rho, L.a);
  prec.fill(1, L.a, L.w0);
  return prec;
}

/** Moves `nat` along reduced coordinate `col` of cell q's local blocks by h. */
function moveNominal(
  p: NomProblem,
  R: Reduced,
  nat: Float64Array,
  q: number,
  col: number,
  h: number,
) {
  const L = p.layout;
  const x = Float64Array.from(nat);
  const j = p.cells.cellJ[q];
  const i = p.cells.cellI[q];
  const K = p.cells.nOptions[i];
  const Hm = helmert(L.Kmax);
  const Hk = helmert(K);
  const { pj, ng } = R;
  if (col < pj) {
    if (col === 0) x[L.theta + j] += h;
    else if (col === R.oLogS) x[L.s + j] *= Math.exp(h);
    else {
      const base =
        R.oDelta >= 0 && col < R.oDelta + L.Kmax - 1 && col >= R.oDelta ? L.delta : L.rho;
      const m = col - (base === L.delta ? R.oDelta : R.oRho);
      for (let k = 0; k < L.Kmax; k++) x[base + j * L.Kmax + k] += h * Hm[k * (L.Kmax - 1) + m];
    }
  } else if (col < pj + ng) {
    if (col - pj === R.gW0) x[L.w0] += h;
    else x[L.kappa] *= Math.exp(h);
  } else {
    const c = col - pj - ng;
    const base = c < K - 1 ? L.a : L.c;
    const m = c % (K - 1);
    for (let k = 0; k < K; k++) x[base + i * L.Kmax + k] += h * Hk[k * (K - 1) + m];
  }
  return x;
}

function logProbs(p: NomProblem, nat: Float64Array, q: number): Float64Array {
  const L = p.layout;
  const i = p.cells.cellI[q];
  const K = p.cells.nOptions[i];
  const bt = allBtilde(nat, L, p.cells.nOptions, p.cells.key);
  const out = new Float64Array(K);
  nominalProbs(nat, L, p.flags, p.cells.cellJ[q], i, K, p.cells.key[i], bt[i], out);
  return out.map(Math.log);
}

describe('cell Jacobians', () => {
  it.each([
    ...(['llmnrm', 'no-sharpness', 'no-position', 'no-fallback', 'nrm-soft'] as const).map(
      (m) => [m, 'eq10'] as const,
    ),
    ['llmnrm', 'margin'] as const,
    ['no-position', 'margin'] as const,
  ])(
    '%s, %s gate: (I − 1pᵀ)·J_cell matches central differences of log nominalProbs to 1e-6',
    (model, gate) => {
      const { problem, nat } = nominalProblem(model, 3, 6, 11, undefined, gate);
      // A livelier gate than the simulator's w0 = −2, so the fallback terms matter.
      if (problem.flags.fallback) nat[problem.layout.w0] = 0.3;
      const R = reducedLayout(problem, 'default');
      const o = cellScratch(R);
      const h = 1e-5;
      let worst = 0;
      for (let q = 0; q < problem.cells.n; q += 2) {
        const i = problem.cells.cellI[q];
        const K = problem.cells.nOptions[i];
        const H = helmert(K);
        nominalCell(
          problem,
          R,
          nat,
          q,
          helmert(problem.layout.Kmax),
          H,
          itemPre(problem, nat, i, H),
          o,
        );
        const lp = logProbs(problem, nat, q).map(Math.exp);
        const width = R.pj + R.ng + R.q[i];
        for (let col = 0; col < width; col++) {
          const Jc = (k: number) =>
            col < R.pj
              ? o.Jp[k * R.pj + col]
              : col < R.pj + R.ng
                ? o.Jg[k * R.ng + col - R.pj]
                : o.Jq[k * R.q[i] + col - R.pj - R.ng];
          let pj = 0;
          for (let k = 0; k < K; k++) pj += lp[k] * Jc(k);
          const fp = logProbs(problem, moveNominal(problem, R, nat, q, col, h), q);
          const fm = logProbs(problem, moveNominal(problem, R, nat, q, col, -h), q);
          for (let k = 0; k < K; k++) {
            const fd = (fp[k] - fm[k]) / (2 * h);
            worst = Math.max(worst, Math.abs(fd - (Jc(k) - pj)));
          }
        }
      }
      expect(worst).toBeLessThan(1e-6);
    },
  );

  it.each(['1pl', '2pl', '3pl', '4pl'] as const)(
    '%s: ∇P matches central differences to 1e-7',
    (model) => {
      const J = 3;
      const I = 4;
      const L = binaryLayout(J, I);
      const nat = new Float64Array(L.size);
      for (let j = 0; j < J; j++) nat[L.theta + j] = -1 + j;
      for (let i = 0; i < I; i++) {
        nat[L.a + i] = model === '1pl' ? 1.3 : 0.7 + 0.3 * i;
        nat[L.d + i] = -0.5 + 0.4 * i;
        nat[L.g + i] = model === '3pl' || model === '4pl' ? 0.2 : 0;
        nat[L.u + i] = model === '4pl' ? 0.9 : 1;
      }
      const { problem } = nominalProblem('nrm-soft', J, I, 3);
      const cells = problem.cells;
      const bp: Extract<Problem, { kind: 'binary' }> = { kind: 'binary', model, layout: L, cells };
      const R = reducedLayout(bp, 'default');
      const o = cellScratch(R);
      const P = (x: Float64Array, q: number) => {
        const i = cells.cellI[q];
        const a = x[L.a + (model === '1pl' ? 0 : i)];
        return (
          x[L.g + i] +
          (x[L.u + i] - x[L.g + i]) /
            (1 + Math.exp(-(a * x[L.theta + cells.cellJ[q]] + x[L.d + i])))
        );
      };
      const lg = (v: number) => Math.log(v / (1 - v));
      const sg = (v: number) => 1 / (1 + Math.exp(-v));
      const h = 1e-6;
      for (let q = 0; q < cells.n; q++) {
        binaryCell(bp, R, nat, q, o);
        const i = cells.cellI[q];
        const moves: [number, (x: Float64Array, e: number) => void][] = [
          [o.Jp[0], (x, e) => (x[L.theta + cells.cellJ[q]] += e)],
        ];
        if (model === '1pl') moves.push([o.Jg[0], (x, e) => (x[L.a] += e)]);
        let c = 0;
        if (model !== '1pl') moves.push([o.Jq[c++], (x, e) => (x[L.a + i] += e)]);
        moves.push([o.Jq[c++], (x, e) => (x[L.d + i] += e)]);
        if (model === '3pl' || model === '4pl')
          moves.push([o.Jq[c++], (x, e) => (x[L.g + i] = sg(lg(x[L.g + i]) + e))]);
        if (model === '4pl') moves.push([o.Jq[c], (x, e) => (x[L.u + i] = sg(lg(x[L.u + i]) + e))]);
        for (const [an, mv] of moves) {
          const xp = Float64Array.from(nat);
          const xm = Float64Array.from(nat);
          mv(xp, h);
          mv(xm, -h);
          expect(Math.abs((P(xp, q) - P(xm, q)) / (2 * h) - an)).toBeLessThan(1e-7);
        }
      }
    },
  );
});

/**
 * The full (person + item) Gauss–Newton matrix built cell by cell with the same
 * Jacobians, the same priors and the same constraints (zero on item rows),
 * inverted directly in the null space: the reference for the Schur path.
 */
function denseDirect(p: NomProblem, nat: Float64Array, prec: Float64Array) {
  const R = reducedLayout(p, 'default');
  const L = p.layout;
  const itemOff = new Int32Array(R.I);
  let N = R.P;
  for (let i = 0; i < R.I; i++) {
    itemOff[i] = N;
    N += R.q[i];
  }
  const Hf = new Float64Array(N * N);
  const o = cellScratch(R);
  const gTheta = sweep(p, R, nat, prec, { cell() {}, item() {} });
  for (let q = 0; q < p.cells.n; q++) {
    const j = p.cells.cellJ[q];
    const i = p.cells.cellI[q];
    const H = helmert(p.cells.nOptions[i]);
    nominalCell(p, R, nat, q, helmert(L.Kmax), H, itemPre(p, nat, i, H), o);
    const idx: number[] = [];
    const cols: ((k: number) => number)[] = [];
    for (let c = 0; c < R.pj; c++) {
      idx.push(j * R.pj + c);
      cols.push((k) => o.Jp[k * R.pj + c]);
    }
    for (let c = 0; c < R.ng; c++) {
      idx.push(R.J * R.pj + c);
      cols.push((k) => o.Jg[k * R.ng + c]);
    }
    for (let c = 0; c < R.q[i]; c++) {
      idx.push(itemOff[i] + c);
      cols.push((k) => o.Jq[k * R.q[i] + c]);
    }
    for (let a = 0; a < idx.length; a++)
      for (let b = 0; b < idx.length; b++) {
        let s = 0;
        for (let k = 0; k < o.K; k++)
          for (let l = 0; l < o.K; l++) s += cols[a](k) * o.W[k * o.K + l] * cols[b](l);
        Hf[idx[a] * N + idx[b]] += s;
      }
  }
  const ex = personCurvatureExtras(p, R, nat, prec, 'default', gTheta);
  for (let j = 0; j < R.J; j++)
    for (let a = 0; a < R.pj; a++)
      for (let b = 0; b < R.pj; b++)
        Hf[(j * R.pj + a) * N + j * R.pj + b] += ex.blocks[j][a * R.pj + b];
  for (let a = 0; a < R.ng; a++)
    for (let b = 0; b < R.ng; b++)
      Hf[(R.J * R.pj + a) * N + R.J * R.pj + b] += ex.globals[a * R.ng + b];
  for (let i = 0; i < R.I; i++) {
    const K = p.cells.nOptions[i];
    const T = new Float64Array(R.q[i] * R.q[i]);
    addContrastPrior(T, R.q[i], 0, prec, L.a + i * L.Kmax, helmert(K), K);
    addContrastPrior(T, R.q[i], K - 1, prec, L.c + i * L.Kmax, helmert(K), K);
    for (let a = 0; a < R.q[i]; a++)
      for (let b = 0; b < R.q[i]; b++)
        Hf[(itemOff[i] + a) * N + itemOff[i] + b] += T[a * R.q[i] + b];
  }
  const { A, r } = constraintMatrix(p, R, nat, 'default');
  const Af = new Float64Array(N * r);
  Af.set(A);
  return { cov: nullSpaceInverse(Hf, N, Af, r).cov, N, R, itemOff };
}

describe('Schur elimination', () => {
  it('equals a dense direct inverse of the same constrained Gauss–Newton matrix (1e-8)', () => {
    const { problem, nat } = nominalProblem('llmnrm', 5, 7, 4, (j, i) => (j + 2 * i) % 5 !== 0);
    nat[problem.layout.w0] = 0.2;
    const prec = nominalPrec(problem);
    const res = laplaceSE(problem, nat, { mode: 'default', priorPrecision: prec, force: 'exact' });
    expect(res.method).toMatch(/exact Schur/);
    const { cov, N, R, itemOff } = denseDirect(problem, nat, prec);
    let worst = 0;
    let scale = 0;
    for (let a = 0; a < R.P; a++)
      for (let b = 0; b < R.P; b++) {
        worst = Math.max(worst, Math.abs(res.covPerson![a * R.P + b] - cov[a * N + b]));
        scale = Math.max(scale, Math.abs(cov[a * N + b]));
      }
    for (let i = 0; i < R.I; i++)
      for (let a = 0; a < R.q[i]; a++)
        for (let b = 0; b < R.q[i]; b++)
          worst = Math.max(
            worst,
            Math.abs(res.itemCov[i][a * R.q[i] + b] - cov[(itemOff[i] + a) * N + itemOff[i] + b]),
          );
    expect(scale).toBeGreaterThan(1e-3);
    expect(worst / scale).toBeLessThan(1e-8);
    // θ's SE is the constrained covariance's diagonal; standardising leaves J − 2 dimensions.
    for (let j = 0; j < R.J; j++)
      expect(res.thetaSE[j]).toBeCloseTo(Math.sqrt(cov[j * R.pj * N + j * R.pj]), 10);
  });

  it('the block-diagonal path equals the exact one when no item is shared between LLMs', () => {
    // Each item seen by one LLM: the Schur complement has no LLM–LLM fill-in,
    // so the bordered block solve (globals and constraints on the border) is exact.
    const { problem, nat } = nominalProblem('llmnrm', 4, 12, 6, (j, i) => i % 4 === j);
    nat[problem.layout.w0] = 0.2;
    const prec = nominalPrec(problem);
    const ex = laplaceSE(problem, nat, { mode: 'default', priorPrecision: prec, force: 'exact' });
    const bl = laplaceSE(problem, nat, { mode: 'default', priorPrecision: prec, force: 'block' });
    expect(bl.method).toMatch(/block-diagonal/);
    const close = (x: Float64Array, y: Float64Array) =>
      x.forEach((v, t) =>
        Number.isNaN(v) ? expect(y[t]).toBeNaN() : expect(y[t]).toBeCloseTo(v, 8),
      );
    close(ex.thetaSE, bl.thetaSE);
    close(ex.sSE, bl.sSE);
    close(ex.aSE, bl.aSE);
    close(ex.cSE, bl.cSE);
    close(ex.bSE, bl.bSE);
    expect(bl.w0SE).toBeCloseTo(ex.w0SE, 8);
    expect(bl.kappaSE).toBeCloseTo(ex.kappaSE, 8);
  });
});

describe('item bootstrap', () => {
  it('reported SE(θ) / item-bootstrap sd of θ has a median within [0.67, 1.5] (simulated, B = 30)', async () => {
    // Known parameters; each cell's target is one categorical draw from the
    // model's p (mass 1), the sampling model the Laplace curvature assumes.
    const sim = simulateNominal({ J: 20, I: 80, seed: 21, K: 4 });
    const ds = sim.data;
    const rng = createRng(99);
    for (let x = 0; x < ds.J * ds.I; x++) {
      const off = x * ds.Kmax;
      let u = rng.next();
      let pick = ds.Kmax - 1;
      for (let k = 0; k < ds.Kmax; k++)
        if ((u -= ds.obs[off + k]) < 0 && pick === ds.Kmax - 1) pick = k;
      for (let k = 0; k < ds.Kmax; k++) ds.obs[off + k] = k === pick ? 1 : 0;
    }
    const rep = await itemBootstrap(ds, {}, 30, 3);
    expect(rep.fit.seMethod).toMatch(/Laplace|sandwich/);
    const r = ratioSummary(rep.se, rep.sd);
    // Measured: median 0.81 (conditional SE 1.06, sandwich 0.49); 20 × 80, K = 4.
    expect(r.median).toBeGreaterThanOrEqual(0.67);
    expect(r.median).toBeLessThanOrEqual(1.5);
  }, 400_000);
});
