import { describe, expect, it } from 'vitest';
import { applyBlocks, type BlockPlan } from './blockInverse';
import { blockCurvature, nominalBlockPlan, probeBlocks } from './blocks';
import { jacobiEigen } from '../stats/eigen';
import { lbfgs, type Objective } from './optim';
import { pose } from './pose';
import { simulateNominal } from '../model/simulate';
import { NOMINAL_MODELS } from '../model/types';

/** f(x) = ½ xᵀAx − bᵀx for a dense symmetric A (row-major n × n). */
function quadratic(A: number[][], b: number[]): Objective {
  return async (x, g) => {
    let f = 0;
    for (let r = 0; r < A.length; r++) {
      let ar = 0;
      for (let c = 0; c < A.length; c++) ar += A[r][c] * x[c];
      g[r] = ar - b[r];
      f += 0.5 * x[r] * ar - b[r] * x[r];
    }
    return f;
  };
}

const plan = (blocks: number[][], nulls: number[][][] = blocks.map(() => [])): BlockPlan => ({
  start: Int32Array.from([0, ...blocks.map((_, b) => blocks.slice(0, b + 1).flat().length)]),
  slots: Int32Array.from(blocks.flat()),
  nulls: nulls.map((u) => u.map((m) => Int32Array.from(m))),
});

const apply = async (f: Objective, P: BlockPlan, n: number, v: number[]) => {
  const inv = await probeBlocks(f, new Float64Array(n), P);
  const out = new Float64Array(n);
  applyBlocks(inv, Float64Array.from(v), out, new Float64Array(2 * inv.width));
  return { out: Array.from(out), passes: inv.passes };
};

describe('Jacobi eigen-decomposition', () => {
  it('[[2, 1], [1, 2]] has eigenvalues 1 and 3 with eigenvectors (1, ∓1)/√2', () => {
    const V = new Float64Array(4);
    const lam = new Float64Array(2);
    jacobiEigen(Float64Array.from([2, 1, 1, 2]), 2, V, lam);
    const order = lam[0] < lam[1] ? [0, 1] : [1, 0];
    expect(lam[order[0]]).toBeCloseTo(1, 12);
    expect(lam[order[1]]).toBeCloseTo(3, 12);
    const v1 = V.subarray(order[0] * 2, order[0] * 2 + 2);
    expect(Math.abs(v1[0])).toBeCloseTo(Math.SQRT1_2, 12);
    expect(v1[0] * v1[1]).toBeCloseTo(-0.5, 12);
  });

  it('[[4, 1, 0], [1, 4, 0], [0, 0, 7]] has eigenvalues 3, 5, 7', () => {
    const lam = new Float64Array(3);
    jacobiEigen(Float64Array.from([4, 1, 0, 1, 4, 0, 0, 0, 7]), 3, new Float64Array(9), lam);
    expect(Array.from(lam).sort((a, b) => a - b)).toEqual([
      expect.closeTo(3, 12),
      expect.closeTo(5, 12),
      expect.closeTo(7, 12),
    ]);
  });
});

describe('probing the block curvature', () => {
  // Slots 0 and 2 form one block, [[4, 1], [1, 2]]; slots 1 and 3 another, [[3, 0], [0, 5]].
  const A = [
    [4, 0, 1, 0],
    [0, 3, 0, 0],
    [1, 0, 2, 0],
    [0, 0, 0, 5],
  ];
  const f = quadratic(A, [1, 2, 3, 4]);

  it('inverts each block: [[4, 1], [1, 2]]⁻¹ = [[2, −1], [−1, 4]] / 7', async () => {
    const { out, passes } = await apply(
      f,
      plan([
        [0, 2],
        [1, 3],
      ]),
      4,
      [1, 1, 1, 1],
    );
    expect(passes).toBe(3); // the base gradient and one probe per member of the widest block
    const want = [1 / 7, 1 / 3, 3 / 7, 1 / 5];
    out.forEach((v, q) => expect(v).toBeCloseTo(want[q], 8));
  });

  it('takes a saddle’s negative curvature as positive: [[3, 1], [1, −2]]', async () => {
    const g = quadratic(
      [
        [3, 1],
        [1, -2],
      ],
      [0, 0],
    );
    // Eigenvalues (1 ± √29)/2; the negative one's eigenvector is (1, λ − 3).
    const lam = (1 - Math.sqrt(29)) / 2;
    const u = [1, lam - 3];
    const { out } = await apply(g, plan([[0, 1]]), 2, u);
    out.forEach((v, q) => expect(v).toBeCloseTo(u[q] / Math.abs(lam), 7));
  });

  it('gives a centring’s null direction the largest diagonal entry as curvature', async () => {
    // [[2, −2], [−2, 2]] with the null direction (1, 1): plus 2·(1, 1)(1, 1)ᵀ/2
    // it is [[3, −1], [−1, 3]], eigenvalues 2 along (1, 1) and 4 along (1, −1).
    const g = quadratic(
      [
        [2, -2],
        [-2, 2],
      ],
      [0, 0],
    );
    const P = plan([[0, 1]], [[[0, 1]]]);
    expect((await apply(g, P, 2, [1, 1])).out).toEqual([
      expect.closeTo(0.5, 7),
      expect.closeTo(0.5, 7),
    ]);
    expect((await apply(g, P, 2, [1, -1])).out).toEqual([
      expect.closeTo(0.25, 7),
      expect.closeTo(-0.25, 7),
    ]);
  });

  it('lets L-BFGS take the Newton step on a block-diagonal quadratic', async () => {
    // Condition number 2·10⁴ inside a block: the diagonal alone needs many steps.
    const B = [
      [1e4, 9.999e3, 0],
      [9.999e3, 1e4, 0],
      [0, 0, 1],
    ];
    const h = quadratic(B, [1, 0, 1]);
    const P = plan([[0, 1], [2]]);
    const opts = { maxSteps: 200, tol: 1e-12, gtol: 1e-9 };
    const plain = await lbfgs(h, new Float64Array(3), opts);
    const probed = await lbfgs(h, new Float64Array(3), {
      ...opts,
      curvature: { probe: (x) => probeBlocks(h, x, P), every: 100 },
    });
    expect(probed.converged).toBe(true);
    expect(probed.steps).toBeLessThanOrEqual(2);
    expect(plain.steps).toBeGreaterThan(probed.steps);
    // The minimum of ½xᵀBx − bᵀx: x₂ = 1; x₀ = 10⁴ / (10⁸ − 9.998·10⁷), x₁ = −0.9999·x₀.
    const x0 = 1e4 / (1e8 - 9.999e3 ** 2);
    expect(probed.x[0]).toBeCloseTo(x0, 4);
    expect(probed.x[1]).toBeCloseTo(-0.9999 * x0, 4);
    expect(probed.x[2]).toBeCloseTo(1, 8);
  });
});

describe('the nominal block plan', () => {
  // Every nominal model: without δ (no-position) its offset equals ρ's, and the
  // plan once dropped ρ's slots there, so L-BFGS never moved ρ (‖g‖ 0.65 at the cap).
  for (const model of NOMINAL_MODELS)
    it(`${model}: holds every free slot but the padding once, in blocks of an item, an LLM and the gate`, () => {
      const ds = simulateNominal({ J: 5, I: 7, seed: 3, kRange: [2, 4] }).data;
      const posed = pose(ds, { model, mode: 'default' });
      const P = nominalBlockPlan(posed)!;
      const seen = new Uint8Array(posed.x0.length);
      for (const q of P.slots) seen[q]++;
      if (posed.kind !== 'nominal') throw new Error(`${model} is a nominal model`);
      const F = posed.P.free;
      const padding = (q: number) => {
        if (q < F.a || q >= F.w0) return false;
        const k = (q - (q < F.c ? F.a : F.c)) % ds.Kmax;
        const i = Math.floor((q - (q < F.c ? F.a : F.c)) / ds.Kmax);
        return k >= ds.nOptions[i];
      };
      for (let q = 0; q < seen.length; q++) expect(seen[q], `slot ${q}`).toBe(padding(q) ? 0 : 1);
      const gate = F.size > F.w0;
      expect(gate).toBe(posed.problem.flags.fallback);
      expect(P.start.length - 1).toBe(ds.I + ds.J + (gate ? 1 : 0));
      // An item's block: 2K members, two centrings.
      expect(P.start[1] - P.start[0]).toBe(2 * ds.nOptions[0]);
      expect(P.nulls[0].map((u) => u.length)).toEqual([ds.nOptions[0], ds.nOptions[0]]);
      // An LLM's: θ, log s, then δ and ρ (Kmax each, one centring each).
      const f = posed.problem.flags;
      const llm = P.start[ds.I + 1] - P.start[ds.I];
      const vectors = (f.position ? 1 : 0) + (f.fallback ? 1 : 0);
      expect(llm).toBe(1 + (f.sharpness ? 1 : 0) + vectors * ds.Kmax);
      expect(P.nulls[ds.I].length).toBe(vectors);
      // The gate's: w0 and κ̄.
      if (gate) expect(P.start[P.start.length - 1] - P.start[P.start.length - 2]).toBe(2);
    });

  it('says how far a probe has got: 2·Kmax + 3 passes, the widest block an LLM’s', async () => {
    const ds = simulateNominal({ J: 4, I: 6, seed: 2, kRange: [2, 5] }).data;
    const posed = pose(ds, { model: 'llmnrm', mode: 'default' });
    let calls = 0;
    const f: Objective = async (_x, g) => {
      calls++;
      g.fill(0);
      return 0;
    };
    const told: string[] = [];
    const cv = blockCurvature(posed, f, { onPass: (done, of) => told.push(`${done}/${of}`) })!;
    const inv = await cv.probe(posed.x0, async () => {});
    const of = 2 * ds.Kmax + 3;
    expect(told).toEqual(Array.from({ length: of }, (_, k) => `${k + 1}/${of}`));
    expect(calls).toBe(of);
    expect(inv.passes).toBe(of);
  });
});
