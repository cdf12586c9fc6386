import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { evaluateFused } from '../fused';
import { nominalCE } from '../fusedNominal';
import { createEngine } from '../select';
import type { Problem } from '../types';
import { buildCells, channelCells } from '../../model/cells';
import { createRng } from '../../model/rng';
import { simulateNominal } from '../../model/simulate';
import { binaryLayout, type NominalFlags } from '../../model/types';
import { createWasmNominal, gateFactor } from './engine';

import { instantiateKernel } from './kernel';
import { btilde } from '../../model/btilde';
import { relMax } from '../../../../test/support/numeric';

/**
 * Tolerances. The kernel's exp and log are float64 polynomials (bounds in
 * kernel.wat, tested below), so it agrees with nominalCE to round-off:
 * CE within 1e-11 relative, gradient within 1e-10 of the gradient's max-norm
 * (both measured ~1e-14). Summation order differs, hence not bit-equal.
 */
const CE_TOL = 1e-11;
const GRAD_TOL = 1e-10;
/** exp: relative error bound over [−708, 709] (truncation < 1.3e-14, plus rounding). */
const EXP_REL = 2e-14;
/** log: absolute error bound 2e-14 (truncation < 1.2e-14) plus 4 ulp of |ln x|. */
const LOG_ABS = 2e-14;
/**
 * The float32 kernel (option32) against nominalCE: CE within 1e-7 relative and
 * the gradient within 1e-6 of its max-norm (measured at most 1.3e-8 and 2.3e-7
 * on the cases below; float32 carries about 6e-8 relative per operation).
 */
const CE32_TOL = 1e-7;
const GRAD32_TOL = 1e-6;
/** exp32: relative error bound on [−87, 0] against e^x of the float32 x (measured 2.1e-7). */
const EXP32_REL = 4e-7;
/** log32: absolute error bound on [1, 256] against ln of the float32 x (measured 3.1e-7). */
const LOG32_ABS = 4e-7;

const FLAG_SETS: NominalFlags[] = [0, 1, 2, 3, 4, 5, 6, 7].map((b) => ({
  sharpness: (b & 1) !== 0,
  position: (b & 2) !== 0,
  fallback: (b & 4) !== 0,
  hardTargets: false,
  gate: 'eq10',
}));
const name = (f: NominalFlags) =>
  `sharpness ${+f.sharpness}, position ${+f.position}, fallback ${+f.fallback}` +
  (f.fallback ? `, ${f.gate} gate` : '');
/** FLAG_SETS and, where there is a fallback, the same with the margin gate (model/gate.ts). */
const ALL_FLAG_SETS: NominalFlags[] = [
  ...FLAG_SETS,
  ...FLAG_SETS.filter((f) => f.fallback).map((f): NominalFlags => ({ ...f, gate: 'margin' })),
];

function perturbed(truth: Float64Array, seed: number): Float64Array {
  const rng = createRng(seed);
  return truth.map((v) => v + 0.3 * rng.normal());
}

describe('the WASM kernel against nominalCE (option channel)', () => {
  // Mixed K up to 10 with missing cells; fixed odd K = Kmax = 5 (the padding lane
  // of every last vector reads the next block); hard (one-hot) targets.
  const cases = [
    {
      label: 'mixed K, 25% missing',
      sim: simulateNominal({ J: 9, I: 40, seed: 5, missing: 0.25, concentration: 30 }),
      hard: false,
    },
    {
      label: 'K = Kmax = 5',
      sim: simulateNominal({ J: 7, I: 25, seed: 6, K: 5, concentration: 30 }),
      hard: false,
    },
    {
      label: 'hard targets, K = 3',
      sim: simulateNominal({ J: 6, I: 20, seed: 7, K: 3 }),
      hard: true,
    },
  ];
  for (const { label, sim, hard } of cases) {
    for (const flags of ALL_FLAG_SETS) {
      it(`${label}: ${name(flags)}`, async () => {
        const cells = buildCells(sim.data, hard);
        const L = sim.layout;
        const nat = perturbed(sim.truth, 11);
        const ref = new Float64Array(L.size);
        const got = new Float64Array(L.size).fill(NaN);
        const ce = nominalCE(nat, ref, L, flags, cells);
        const evaluate = await createWasmNominal(L, flags, cells);
        const wce = evaluate(nat, got);
        expect(Math.abs(wce - ce) / ce).toBeLessThan(CE_TOL);
        expect(relMax(got, ref)).toBeLessThan(GRAD_TOL);
        // The objective alone, and again (state must not leak between calls).
        expect(evaluate(nat, null)).toBe(wce);
        const again = new Float64Array(L.size);
        expect(evaluate(nat, again)).toBe(wce);
        expect(again).toEqual(got);
        // The float32 kernel, to its own tolerance; then float64 again, unchanged
        // by what the float32 call left in memory.
        const got32 = new Float64Array(L.size).fill(NaN);
        const ce32 = evaluate(nat, got32, true);
        expect(Math.abs(ce32 - ce) / ce).toBeLessThan(CE32_TOL);
        expect(relMax(got32, ref)).toBeLessThan(GRAD32_TOL);
        expect(evaluate(nat, null, true)).toBe(ce32);
        expect(evaluate(nat, again)).toBe(wce);
        expect(again).toEqual(got);
      });
    }
  }

  it.each(['eq10', 'margin'] as const)(
    'agrees across several kernel calls (more cells than one chunk), %s gate',
    async (gate) => {
      const sim = simulateNominal({ J: 60, I: 300, seed: 8, missing: 0.05, concentration: 30 });
      const cells = buildCells(sim.data, false);
      expect(cells.n).toBeGreaterThan(2 * 8192);
      const flags: NominalFlags = { ...FLAG_SETS[7], gate };
      const nat = perturbed(sim.truth, 15);
      const ref = new Float64Array(sim.layout.size);
      const got = new Float64Array(sim.layout.size);
      const ce = nominalCE(nat, ref, sim.layout, flags, cells);
      const evaluate = await createWasmNominal(sim.layout, flags, cells);
      expect(Math.abs(evaluate(nat, got) - ce) / ce).toBeLessThan(CE_TOL);
      expect(relMax(got, ref)).toBeLessThan(GRAD_TOL);
      expect(Math.abs(evaluate(nat, got, true) - ce) / ce).toBeLessThan(CE32_TOL);
      expect(relMax(got, ref)).toBeLessThan(GRAD32_TOL);
    },
  );

  /**
   * Cells, a point with κ = 10⁴ (the α range w0 − κ·θ_j far wider than ±700, so
   * the gate runs "direct": e^−(α + β) per cell), nominalCE's CE and gradient
   * there, and the kernel's evaluator.
   */
  async function beyondGate(sim: ReturnType<typeof simulateNominal>, seed: number) {
    const cells = buildCells(sim.data, false);
    const L = sim.layout;
    const flags = FLAG_SETS[7];
    const nat = perturbed(sim.truth, seed);
    nat[L.kappa] = 1e4;
    const ref = new Float64Array(L.size);
    const ce = nominalCE(nat, ref, L, flags, cells);
    expect(Number.isFinite(ce)).toBe(true);
    return { cells, L, flags, nat, ref, ce, evaluate: await createWasmNominal(L, flags, cells) };
  }

  it('takes a gate beyond its factors per cell ("direct"), from its own copy of the cells', async () => {
    const sim = simulateNominal({ J: 9, I: 40, seed: 5, missing: 0.25, concentration: 30 });
    const { cells, L, flags, nat, ref, ce, evaluate } = await beyondGate(sim, 13);
    // The evaluator must not read the caller's cells after set-up (a shard frees them).
    cells.target.fill(NaN);
    cells.cellJ.fill(0);
    cells.cellI.fill(0);
    const got = new Float64Array(L.size).fill(NaN);
    expect(Math.abs(evaluate(nat, got) - ce) / ce).toBeLessThan(CE_TOL);
    expect(relMax(got, ref)).toBeLessThan(GRAD_TOL);
    expect(Math.abs(evaluate(nat, got, true) - ce) / ce).toBeLessThan(CE32_TOL);
    expect(relMax(got, ref)).toBeLessThan(GRAD32_TOL);
    // The factors again at κ = 1: nothing of the direct call is left behind.
    nat[L.kappa] = 1;
    const ref1 = new Float64Array(L.size);
    const ce1 = nominalCE(nat, ref1, L, flags, buildCells(sim.data, false));
    expect(Math.abs(evaluate(nat, got) - ce1) / ce1).toBeLessThan(CE_TOL);
    expect(relMax(got, ref1)).toBeLessThan(GRAD_TOL);
  });

  it('takes such a gate across several kernel calls (more cells than one chunk, 8,192)', async () => {
    const sim = simulateNominal({ J: 60, I: 1200, seed: 16, missing: 0.05, concentration: 30 });
    const { cells, L, nat, ref, ce, evaluate } = await beyondGate(sim, 17);
    expect(cells.n).toBeGreaterThan(8 * 8192);
    const got = new Float64Array(L.size).fill(NaN);
    expect(Math.abs(evaluate(nat, got) - ce) / ce).toBeLessThan(CE_TOL);
    expect(relMax(got, ref)).toBeLessThan(GRAD_TOL);
    expect(evaluate(nat, null)).toBe(evaluate(nat, got));
  });

  it('matches central finite differences of its own objective', async () => {
    const sim = simulateNominal({ J: 8, I: 30, seed: 9, concentration: 40 });
    const flags = FLAG_SETS[7];
    const cells = buildCells(sim.data, false);
    const L = sim.layout;
    const evaluate = await createWasmNominal(L, flags, cells);
    const nat = perturbed(sim.truth, 12);
    const g = new Float64Array(L.size);
    evaluate(nat, g);
    const rng = createRng(13);
    // Every block of the layout, plus random entries.
    const picks = [L.theta + 2, L.s + 3, L.delta + 5, L.rho + 7, L.a + 11, L.c + 13, L.w0, L.kappa];
    for (let r = 0; r < 24; r++) picks.push(rng.int(L.size));
    for (const q of picks) {
      const h = 1e-5 * Math.max(1, Math.abs(nat[q]));
      const x = nat.slice();
      x[q] = nat[q] + h;
      const up = evaluate(x, null);
      x[q] = nat[q] - h;
      const down = evaluate(x, null);
      const fd = (up - down) / (2 * h);
      expect(Math.abs(fd - g[q]), `parameter ${q}`).toBeLessThan(
        1e-6 * Math.max(1, Math.abs(g[q])),
      );
    }
  });

  it('takes any w0 on its factors (the gate centred), and settled items beyond ±700', async () => {
    const sim = simulateNominal({ J: 9, I: 40, seed: 5, missing: 0.25, concentration: 30 });
    const flags = FLAG_SETS[7];
    const cells = buildCells(sim.data, false);
    const L = sim.layout;
    const evaluate = await createWasmNominal(L, flags, cells);
    const check = (nat: Float64Array, what: string) => {
      const ref = new Float64Array(L.size);
      const ce = nominalCE(nat, ref, L, flags, cells);
      const got = new Float64Array(L.size).fill(NaN);
      expect(Math.abs(evaluate(nat, got) - ce) / ce, what).toBeLessThan(CE_TOL);
      expect(relMax(got, ref), what).toBeLessThan(GRAD_TOL);
    };
    // As a browser fit at the paper's full shape ended (w0 −854, κ 19.6): every
    // α_j = w0 − κθ_j far below −700, the gate open only on the hardest item,
    // where κb̃ is about as large. θ is squeezed into [−0.5, 0.5] so that the
    // α range's half-width stays below 300 and the items beyond ±700 settle.
    const nat = sim.truth.slice();
    const T = Math.max(...Array.from({ length: sim.data.J }, (_, j) => Math.abs(nat[L.theta + j])));
    for (let j = 0; j < sim.data.J; j++) nat[L.theta + j] /= 2 * T;
    const scratch = new Float64Array(L.Kmax);
    const bt = Array.from({ length: sim.data.I }, (_, i) =>
      btilde(
        nat.subarray(L.a),
        nat.subarray(L.c),
        i * L.Kmax,
        sim.data.nOptions[i],
        sim.data.key[i],
        scratch,
      ),
    );
    const hardest = bt.indexOf(Math.max(...bt));
    const kappa = 850 / bt[hardest];
    nat[L.w0] = -850;
    nat[L.kappa] = kappa;
    const y = (j: number, i: number) => -850 - kappa * (nat[L.theta + j] - bt[i]);
    const cellsOf = (i: number) =>
      Array.from({ length: sim.data.J }, (_, j) => j).filter(
        (j) => sim.data.observed[j * sim.data.I + i] === 1,
      );
    expect(kappa * 0.5).toBeLessThan(300);
    expect(Math.max(...cellsOf(hardest).map((j) => -850 - kappa * nat[L.theta + j]))).toBeLessThan(
      -700,
    );
    expect(cellsOf(hardest).some((j) => Math.abs(y(j, hardest)) < 30)).toBe(true);
    check(nat, 'w0 −850');
    // Saturated: G = 1 (w0 = 5,000) and G = 0 (w0 = −5,000) in every cell.
    const sat = sim.truth.slice();
    sat[L.w0] = 5000;
    check(sat, 'w0 5000');
    sat[L.w0] = -5000;
    check(sat, 'w0 −5000');
  });

  it('gateFactor: e^−β up to |700|, then 0 or ∞ only where σ is settled for every partner', () => {
    expect(gateFactor(0, 700)).toBe(1);
    expect(gateFactor(-700, 700)).toBe(Math.exp(700));
    expect(gateFactor(700, 700)).toBe(Math.exp(-700));
    // β' > 700: 0 when β' − h ≥ 40
    expect(gateFactor(701, 661)).toBe(0);
    expect(gateFactor(701, 662)).toBeNaN();
    expect(gateFactor(5000, 300)).toBe(0);
    // β' < −700: ∞ when β' + h ≤ −400
    expect(gateFactor(-701, 301)).toBe(Infinity);
    expect(gateFactor(-701, 302)).toBeNaN();
    expect(gateFactor(NaN, 0)).toBeNaN();
  });
});

describe('the wasm engine', () => {
  const sim = simulateNominal({ J: 6, I: 20, seed: 3, concentration: 50 });
  const flags = FLAG_SETS[7];
  const nat = perturbed(sim.truth, 14);

  it('is created by name and agrees with the fused engine', async () => {
    const problem: Problem = {
      kind: 'nominal',
      flags,
      layout: sim.layout,
      cells: buildCells(sim.data, false),
    };
    const engine = await createEngine(problem, 'wasm');
    expect(engine.name).toBe('wasm');
    expect(engine.detail).toBeUndefined();
    const g = new Float64Array(sim.layout.size);
    const ref = new Float64Array(sim.layout.size);
    const ce = await engine.evaluate(nat, g);
    expect(Math.abs(ce / evaluateFused(problem, nat, ref) - 1)).toBeLessThan(CE_TOL);
    expect(relMax(g, ref)).toBeLessThan(GRAD_TOL);
    // `coarse` takes the float32 kernel: a different number, within its tolerance.
    const ce32 = await engine.evaluate(nat, g, true);
    expect(ce32).not.toBe(ce);
    expect(Math.abs(ce32 / ce - 1)).toBeLessThan(CE32_TOL);
    expect(relMax(g, ref)).toBeLessThan(GRAD32_TOL);
    engine.dispose();
  });

  it('runs the JS fused loop for the binary and wrong-only channels and the binary family', async () => {
    const problems: Problem[] = [
      {
        kind: 'nominal',
        flags,
        layout: sim.layout,
        cells: channelCells(sim.data, 'binary'),
        channel: 'binary',
      },
      {
        kind: 'nominal',
        flags,
        layout: sim.layout,
        cells: channelCells(sim.data, 'wrong'),
        channel: 'wrong',
      },
      {
        kind: 'binary',
        model: '2pl',
        layout: binaryLayout(sim.data.J, sim.data.I),
        cells: buildCells(sim.data, true),
      },
    ];
    for (const problem of problems) {
      const engine = await createEngine(problem, 'wasm');
      expect(engine.detail).toMatch(/JS fused loop/);
      const x = problem.kind === 'binary' ? new Float64Array(problem.layout.size).fill(0.1) : nat;
      const g = new Float64Array(x.length);
      const ref = new Float64Array(x.length);
      expect(await engine.evaluate(x, g)).toBe(evaluateFused(problem, x, ref));
      expect(g).toEqual(ref);
    }
  });

  it('runs the margin gate on the kernel (a per-cell gate), not eq. 10’s', async () => {
    const problem: Problem = {
      kind: 'nominal',
      flags: { ...flags, gate: 'margin' },
      layout: sim.layout,
      cells: buildCells(sim.data, false),
    };
    const engine = await createEngine(problem, 'wasm');
    expect(engine.detail).toBeUndefined();
    // Float64 only under the margin gate (wasmFloat32): `coarse` changes nothing.
    expect(engine.float32).toBe(false);
    const g = new Float64Array(nat.length);
    const ref = new Float64Array(nat.length);
    const ce = await engine.evaluate(nat, g);
    expect(await engine.evaluate(nat, null, true)).toBe(ce);
    expect(Math.abs(ce / evaluateFused(problem, nat, ref) - 1)).toBeLessThan(CE_TOL);
    expect(relMax(g, ref)).toBeLessThan(GRAD_TOL);
    // The two forms differ on this problem by far more than the tolerance.
    const eq10 = evaluateFused({ ...problem, flags }, nat, null);
    expect(Math.abs(ce / eq10 - 1)).toBeGreaterThan(1e3 * CE_TOL);
    engine.dispose();
  });
});

describe('the kernel polynomials', () => {
  it(`exp is within ${EXP_REL} relative of Math.exp over [−708, 709], and 0 below`, async () => {
    const k = await instantiateKernel();
    const rng = createRng(21);
    let worst = 0;
    const check = (x: number) => {
      const want = Math.exp(x);
      worst = Math.max(worst, Math.abs(k.exp(x) - want) / want);
    };
    for (let q = 0; q <= 200_000; q++) check(-708 + (1417 * q) / 200_000);
    for (let q = 0; q < 100_000; q++) check(-40 * rng.next()); // where the kernel's z − m lie
    for (const x of [0, -0, 709, -708, -Math.LN2 / 2, Math.LN2 / 2, -1e-300]) check(x);
    expect(worst).toBeLessThan(EXP_REL);
    expect(k.exp(-708.5)).toBe(0);
    expect(k.exp(-1e6)).toBe(0);
    expect(k.exp(-Infinity)).toBe(0);
    expect(k.exp(NaN)).toBeNaN();
  });

  it(`exp32 is within ${EXP32_REL} relative of e^x over [−87, 0], and 0 below`, async () => {
    const k = await instantiateKernel();
    const rng = createRng(23);
    let worst = 0;
    const check = (x: number) => {
      // The kernel sees x rounded to float32; its own error is measured from there.
      const want = Math.exp(Math.fround(x));
      worst = Math.max(worst, Math.abs(k.exp32(x) - want) / want);
    };
    for (let q = 0; q <= 200_000; q++) check(-87 + (87 * q) / 200_000);
    for (let q = 0; q < 100_000; q++) check(-20 * rng.next());
    for (const x of [0, -0, -87, -Math.LN2 / 2, -1e-30]) check(x);
    expect(worst).toBeLessThan(EXP32_REL);
    expect(k.exp32(-87.5)).toBe(0);
    expect(k.exp32(-Infinity)).toBe(0);
    expect(k.exp32(NaN)).toBeNaN();
  });

  it(`log32 is within ${LOG32_ABS} of ln x over [1, 256]`, async () => {
    const k = await instantiateKernel();
    let worst = 0;
    const check = (x: number) => {
      worst = Math.max(worst, Math.abs(k.log32(x) - Math.log(Math.fround(x))));
    };
    for (let q = 0; q <= 200_000; q++) check(1 + (255 * q) / 200_000);
    for (const x of [1, Math.SQRT2, 2, 10, 255.9]) check(x);
    expect(worst).toBeLessThan(LOG32_ABS);
    expect(k.log32(1)).toBe(0);
  });

  it(`log is within ${LOG_ABS} + 4 ulp of Math.log for positive normal x`, async () => {
    const k = await instantiateKernel();
    const rng = createRng(22);
    let worst = 0;
    const check = (x: number) => {
      const want = Math.log(x);
      const err = Math.abs(k.log(x) - want);
      worst = Math.max(worst, err / (LOG_ABS + 4 * Number.EPSILON * Math.abs(want)));
    };
    // [1, 256): where the kernel's softmax sums lie; then the whole normal range.
    for (let q = 0; q < 200_000; q++) check(1 + (255 * q) / 200_000);
    for (let q = 0; q < 100_000; q++) check(Math.pow(10, -307 + 615 * rng.next()));
    for (const x of [1, Math.SQRT2, Math.SQRT1_2, 2, 255, Number.MIN_VALUE * 2 ** 52, 1.7e308])
      check(x);
    expect(worst).toBeLessThan(1);
  });
});

describe('kernel.bytes.ts', () => {
  it('equals a fresh assembly of kernel.wat', () => {
    const script = fileURLToPath(new URL('../../../../scripts/build-wasm.mjs', import.meta.url));
    // Exits non-zero (and execFileSync throws) when the committed bytes are stale.
    expect(() =>
      execFileSync(process.execPath, [script, '--check'], { stdio: 'pipe' }),
    ).not.toThrow();
  });
});
