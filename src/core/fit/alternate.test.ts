import { describe, expect, it } from 'vitest';
import { completeDataset } from '../data/complete';
import { subsetDataset } from '../data/subset';
import { createFusedEngine } from '../engines/fused';
import { specsAt } from '../model/hprior';
import { simulateNominal } from '../model/simulate';
import { alternate, alternator } from './alternate';
import { fitDataset } from './fit';
import { makeObjective, pose, type NominalPosed } from './pose';
import { createSweeper, itemBlockOffsets, llmBlockSize } from '../engines/sweep';

/** A small simulated problem with the margin gate, posed in the default mode at strength λ. */
function small(lambda = 2, seed = 3): NominalPosed {
  const sim = simulateNominal({
    J: 6,
    I: 5,
    seed,
    missing: 0.1,
    concentration: 50,
    gateForm: 'margin',
  });
  const posed = pose(sim.data, { model: 'llmnrm', mode: 'default' });
  if (posed.kind !== 'nominal') throw new Error('nominal expected');
  posed.P.priors = specsAt(posed.P.groups, lambda, {});
  return posed;
}

/** A point away from the documented start (every parameter moved). */
function moved(posed: NominalPosed): Float64Array {
  const x = Float64Array.from(posed.x0);
  for (let q = 0; q < x.length; q++) x[q] += 0.3 * Math.sin(q * 1.7);
  return x;
}

/** The natural parameters at the moved point. */
function movedNat(posed: NominalPosed): Float64Array {
  const nat = new Float64Array(posed.P.natSize);
  posed.P.toNatural(moved(posed), nat);
  return nat;
}

/** The engine's ∂CE/∂nat at nat. */
async function engineGrad(posed: NominalPosed, nat: Float64Array): Promise<Float64Array> {
  const g = new Float64Array(nat.length);
  await createFusedEngine(posed.problem).evaluate(nat, g);
  return g;
}

/** Central differences of the engine's gradient along natural slots: the Hessian's rows. */
async function fdHessian(posed: NominalPosed, nat: Float64Array, slots: number[], h = 1e-5) {
  const rows: number[][] = [];
  for (const r of slots) {
    const up = Float64Array.from(nat);
    const dn = Float64Array.from(nat);
    up[r] += h;
    dn[r] -= h;
    const gu = await engineGrad(posed, up);
    const gd = await engineGrad(posed, dn);
    rows.push(slots.map((c) => (gu[c] - gd[c]) / (2 * h)));
  }
  return rows;
}

/** Item i's (a, c) block, as the sweep wrote it into `item`, against the engine's finite-difference Hessian. */
async function expectItemBlock(
  posed: NominalPosed,
  nat: Float64Array,
  blocks: { item: Float64Array; itemOff: Int32Array },
  i: number,
) {
  const { layout: L, cells } = posed.problem;
  const K = cells.nOptions[i];
  const slots = [...Array(2 * K).keys()].map((m) =>
    m < K ? L.a + i * L.Kmax + m : L.c + i * L.Kmax + m - K,
  );
  const H = await fdHessian(posed, nat, slots);
  for (let r = 0; r < 2 * K; r++)
    for (let c = 0; c < 2 * K; c++)
      expect(Math.abs(blocks.item[blocks.itemOff[i] + r * 2 * K + c] - H[r][c])).toBeLessThan(1e-7);
}

describe('sweep (alternate.ts blocks)', () => {
  it('gives the fused engine’s cross-entropy and gradient', async () => {
    const posed = small();
    const nat = movedNat(posed);
    const { layout, flags, cells } = posed.problem;
    const g = new Float64Array(nat.length);
    const ce = createSweeper(layout, flags, cells).sweep(nat, { grad: g });
    const ref = await engineGrad(posed, nat);
    const ceRef = await createFusedEngine(posed.problem).evaluate(nat, null);
    expect(Math.abs(ce - ceRef)).toBeLessThan(1e-10 * Math.abs(ceRef));
    for (let q = 0; q < g.length; q++) expect(Math.abs(g[q] - ref[q])).toBeLessThan(1e-10);
  });

  it('with the gate shut, an item’s and an LLM’s blocks are the finite-difference Hessian of the engine', async () => {
    const posed = small();
    const { layout: L, flags, cells } = posed.problem;
    const nat = movedNat(posed);
    nat[L.w0] = -40; // G < 1e-17: z is linear in an item's (a, c) and in θ, δ, ρ
    const itemOff = itemBlockOffsets(cells.nOptions);
    const item = new Float64Array(itemOff[L.I]);
    const nL = llmBlockSize(L.Kmax);
    const llm = new Float64Array(L.J * nL * nL);
    createSweeper(L, flags, cells).sweep(nat, { grad: null, blocks: { item, itemOff, llm } });
    await expectItemBlock(posed, nat, { item, itemOff }, 2);
    // LLM 1: θ and δ (log s enters through s, so its curvature is not the plain Hessian's).
    const j = 1;
    const members = [0, ...[...Array(L.Kmax).keys()].map((k) => 2 + k)];
    const lslots = members.map((m) => (m === 0 ? L.theta + j : L.delta + j * L.Kmax + m - 2));
    const HL = await fdHessian(posed, nat, lslots);
    members.forEach((r, a) =>
      members.forEach((c, b) =>
        expect(Math.abs(llm[j * nL * nL + r * nL + c] - HL[a][b])).toBeLessThan(1e-7),
      ),
    );
  });
});

describe('sweep blocks with the gate open', () => {
  it('an LLM’s block over (θ, log s, δ, ρ) and the gate’s over (w0, κ̄) are the engine’s finite-difference Hessian', async () => {
    const posed = small();
    const { layout: L, flags, cells } = posed.problem;
    const nat = movedNat(posed);
    const nL = llmBlockSize(L.Kmax);
    const llm = new Float64Array(L.J * nL * nL);
    const gate = new Float64Array(4);
    createSweeper(L, flags, cells).sweep(nat, { grad: null, blocks: { llm, gate } });
    const h = 1e-5;
    const j = 3;
    // Member m's natural slot; log s is moved as s·e^{±h} and read as s·∂CE/∂s.
    const slot = (m: number) =>
      m === 0
        ? L.theta + j
        : m === 1
          ? L.s + j
          : m < 2 + L.Kmax
            ? L.delta + j * L.Kmax + m - 2
            : L.rho + j * L.Kmax + m - 2 - L.Kmax;
    const read = (g: Float64Array, v: Float64Array, m: number) =>
      m === 1 ? g[L.s + j] * v[L.s + j] : g[slot(m)];
    for (let r = 0; r < nL; r++) {
      const up = Float64Array.from(nat);
      const dn = Float64Array.from(nat);
      if (r === 1) {
        up[L.s + j] *= Math.exp(h);
        dn[L.s + j] *= Math.exp(-h);
      } else {
        up[slot(r)] += h;
        dn[slot(r)] -= h;
      }
      const gu = await engineGrad(posed, up);
      const gd = await engineGrad(posed, dn);
      for (let c = 0; c < nL; c++) {
        const fd = (read(gu, up, c) - read(gd, dn, c)) / (2 * h);
        expect(Math.abs(llm[j * nL * nL + r * nL + c] - fd)).toBeLessThan(1e-7);
      }
    }
    // The gate in its free coordinates: κ = softplus(κ̄), ∂/∂κ̄ = σ(κ̄)·∂/∂κ = (1 − e^{−κ})·∂/∂κ.
    const kBar = Math.log(Math.expm1(nat[L.kappa]));
    const at = (w0: number, kb: number) => {
      const v = Float64Array.from(nat);
      v[L.w0] = w0;
      v[L.kappa] = Math.log1p(Math.exp(kb));
      return v;
    };
    const free = async (v: Float64Array) => {
      const g = await engineGrad(posed, v);
      return [g[L.w0], g[L.kappa] * -Math.expm1(-v[L.kappa])];
    };
    const steps = [
      [h, 0],
      [0, h],
    ];
    for (let r = 0; r < 2; r++) {
      const gu = await free(at(nat[L.w0] + steps[r][0], kBar + steps[r][1]));
      const gd = await free(at(nat[L.w0] - steps[r][0], kBar - steps[r][1]));
      for (let c = 0; c < 2; c++)
        expect(Math.abs(gate[r * 2 + c] - (gu[c] - gd[c]) / (2 * h))).toBeLessThan(1e-7);
    }
  });

  it('an item’s block is the engine’s finite-difference Hessian', async () => {
    const posed = small();
    const { layout: L, flags, cells } = posed.problem;
    const nat = movedNat(posed);
    const itemOff = itemBlockOffsets(cells.nOptions);
    const item = new Float64Array(itemOff[L.I]);
    createSweeper(L, flags, cells).sweep(nat, { grad: null, blocks: { item, itemOff } });
    for (const i of [0, 3]) await expectItemBlock(posed, nat, { item, itemOff }, i);
  });
});

describe('streamed item blocks (SweepBlocks.onItem)', () => {
  it('hand on each item once, in order, its block as the stored sweep sums it', () => {
    const posed = small();
    const { layout: L, flags, cells } = posed.problem;
    const nat = movedNat(posed);
    const off = itemBlockOffsets(cells.nOptions);
    const stored = new Float64Array(off[L.I]);
    createSweeper(L, flags, cells).sweep(nat, {
      grad: null,
      blocks: { item: stored, itemOff: off },
    });
    const seen: number[] = [];
    const scratch = new Float64Array(4 * L.Kmax * L.Kmax).fill(7); // stale values must not leak in
    createSweeper(L, flags, cells).sweep(nat, {
      grad: null,
      blocks: {
        item: scratch,
        onItem: (i, block) => {
          seen.push(i);
          const n = off[i + 1] - off[i];
          expect(Array.from(block.subarray(0, n))).toEqual(
            Array.from(stored.subarray(off[i], off[i + 1])),
          );
        },
      },
    });
    expect(seen).toEqual([0, 1, 2, 3, 4]);
  });

  it('refuse cells that are not item-major', () => {
    const posed = small();
    const { layout: L, flags, cells } = posed.problem;
    const last = cells.n - 1;
    const cellI = Uint32Array.from(cells.cellI);
    [cellI[0], cellI[last]] = [cellI[last], cellI[0]];
    const sw = createSweeper(L, flags, { ...cells, cellI });
    const item = new Float64Array(4 * L.Kmax * L.Kmax);
    expect(() =>
      sw.sweep(movedNat(posed), { grad: null, blocks: { item, onItem: () => {} } }),
    ).toThrow(/item-major/);
  });
});

describe('the item step', () => {
  it('matches a hand-computed Newton step: 2 LLMs (θ ±1), 1 item, 3 options, from a = c = 0', () => {
    // p = 1/3 each; g_a = t₂ − t₁, g_c = 2/3 − (t₁ + t₂); the Hessian on centred
    // vectors is 2/3 for a and c (ΣθW = 0), plus the priors 1/1² and 1/3² (λ = 1).
    const obs = Float32Array.from([0.7, 0.2, 0.1, 0.2, 0.3, 0.5]);
    const ds = completeDataset(obs, Uint8Array.from([0]), { J: 2, I: 1, K: 3 });
    const posed = pose(ds, { model: 'nrm-soft', mode: 'default' });
    if (posed.kind !== 'nominal') throw new Error('nominal expected');
    posed.P.priors = specsAt(posed.P.groups, 1, {});
    const F = posed.P.free;
    const x = new Float64Array(posed.P.size);
    x[F.theta] = 1;
    x[F.theta + 1] = -1;
    alternator(posed).itemStep(x);
    const nat = new Float64Array(posed.P.natSize);
    posed.P.toNatural(x, nat);
    const L = posed.problem.layout;
    const a = [0.3, -0.06, -0.24];
    const c = [0.3, -(1 / 6) * (9 / 7), -(1 / 15) * (9 / 7)];
    for (let k = 0; k < 3; k++) {
      expect(nat[L.a + k]).toBeCloseTo(a[k], 6);
      expect(nat[L.c + k]).toBeCloseTo(c[k], 6);
    }
  });

  it('lowers the engine’s objective, and repeated steps zero the items’ finite-difference gradient', async () => {
    const posed = small();
    const obj = makeObjective(posed, createFusedEngine(posed.problem));
    const f = (x: Float64Array) => obj.f(x, null);
    const x = moved(posed);
    const steps = alternator(posed);
    let before = await f(x);
    for (let s = 0; s < 12; s++) {
      steps.itemStep(x);
      const after = await f(x);
      expect(after).toBeLessThanOrEqual(before + 1e-12 * Math.abs(before));
      before = after;
    }
    // The items' free coordinates: central differences of the engine's objective.
    const F = posed.P.free;
    const h = 1e-5;
    for (let q = F.a; q < F.w0; q++) {
      const up = Float64Array.from(x);
      const dn = Float64Array.from(x);
      up[q] += h;
      dn[q] -= h;
      expect(Math.abs((await f(up)) - (await f(dn))) / (2 * h)).toBeLessThan(1e-5);
    }
  });
});

/** The simulation the whole-fit tests draw from (the margin gate, few cells missing). */
const FIT_SIM = { missing: 0.05, concentration: 100, gateForm: 'margin' } as const;

describe('the alternating solver', () => {
  it('the LLM step lowers the engine’s objective', async () => {
    const posed = small();
    const obj = makeObjective(posed, createFusedEngine(posed.problem));
    const x = moved(posed);
    const before = await obj.f(x, null);
    const r = alternator(posed).llmStep(x);
    const after = await obj.f(x, null);
    expect(after).toBeLessThan(before);
    expect(Math.abs(after - r.value)).toBeLessThan(1e-9 * Math.abs(after));
  });

  it('sweeps lower the objective monotonically', async () => {
    const posed = small();
    const values: number[] = [];
    const r = await alternate(posed, moved(posed), { onSweep: (s) => values.push(s.value) });
    for (let s = 1; s < values.length; s++) expect(values[s]).toBeLessThanOrEqual(values[s - 1]);
    expect(r.sweeps).toBeGreaterThan(0);
  });

  it('exact blocks and the sweeps converge to the probed path’s objective or lower, and fit.json says which ran', async () => {
    const sim = simulateNominal({ ...FIT_SIM, J: 10, I: 40, seed: 5 });
    const base = { model: 'llmnrm', priorStrength: 2 } as const;
    const old = await fitDataset(sim.data, { ...base, finalFit: 'lbfgs', curvature: 'blocks' });
    const exact = await fitDataset(sim.data, { ...base, curvature: 'exact' });
    const alt = await fitDataset(sim.data, { ...base, finalFit: 'alternate', curvature: 'exact' });
    expect(exact.settings.curvature).toBe('exact');
    expect(alt.settings.finalFit).toBe('alternate');
    expect(alt.settings.curvature).toBe('exact');
    expect(old.settings.curvature).toBe('blocks');
    const total = (j: typeof old) => j.objective + j.penalty;
    for (const fit of [exact, alt]) {
      expect(fit.converged).toBe(true);
      expect(fit.gradNorm!).toBeLessThanOrEqual(1e-5);
      expect(total(fit)).toBeLessThanOrEqual(total(old) + 1e-6 * Math.abs(total(old)));
    }
    // Exact blocks cost one pass where probing costs 2·Kmax + 3 (measured here:
    // 658 passes probed, 225 exact, 170 with the sweeps; one objective).
    expect(exact.passes).toBeLessThan(old.passes);
  });

  it('the same cells in another order give the same fit with exact blocks and the sweeps (the canonical copy)', async () => {
    const sim = simulateNominal({ ...FIT_SIM, J: 8, I: 30, seed: 11 });
    const llms = [...Array(8).keys()].reverse();
    const items = [...Array(30).keys()].map((i) => (i * 7) % 30);
    const shuffled = subsetDataset(sim.data, llms, items);
    const s = {
      model: 'llmnrm',
      priorStrength: 2,
      curvature: 'exact',
      finalFit: 'alternate',
    } as const;
    const a = await fitDataset(sim.data, s);
    const b = await fitDataset(shuffled, s);
    // The reported objective is re-evaluated on each posing's own cell order (last bits).
    expect(Math.abs(b.objective - a.objective)).toBeLessThan(1e-12 * Math.abs(a.objective));
    const theta = (f: typeof a) => new Map(f.llms.map((l) => [l.id, l.theta]));
    const ta = theta(a);
    // To the last bits, as the earlier path (blocks, Adam: 2.2e-16 here; these: 4.4e-16).
    for (const [id, t] of theta(b)) expect(Math.abs(t - ta.get(id)!)).toBeLessThan(1e-12);
  });
});
