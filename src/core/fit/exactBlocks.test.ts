import { describe, expect, it } from 'vitest';
import { hideCells } from '../data/hide';
import { specsAt } from '../model/hprior';
import { simulateNominal } from '../model/simulate';
import { createNodeParallelEngine } from '../../node/parallel';
import type { BlockInverse } from './blockInverse';
import { exactCurvature, probedThenExact } from './exactBlocks';
import { pose, type NominalPosed } from './pose';

/**
 * A margin-gate problem in the default mode whose items 0, 23 and 59 have no
 * cells: before the first shard's items, between or inside the shards' spans,
 * after the last shard's.
 */
function problem(): NominalPosed {
  const sim = simulateNominal({
    J: 12,
    I: 60,
    seed: 8,
    // Kmax 6: the WASM kernel's target stride (8) differs from Kmax.
    kRange: [3, 6],
    missing: 0.1,
    concentration: 50,
    gateForm: 'margin',
  });
  const empty = new Set([0, 23, 59]);
  const data = hideCells(sim.data, (c) => empty.has(c % sim.data.I));
  const posed = pose(data, { model: 'llmnrm', mode: 'default' });
  if (posed.kind !== 'nominal') throw new Error('nominal expected');
  posed.P.priors = specsAt(posed.P.groups, 2, {});
  return posed;
}

/** The blocks at a point away from the documented start, swept here or in `engine`'s shards. */
async function blocksAt(
  posed: NominalPosed,
  engine?: Awaited<ReturnType<typeof createNodeParallelEngine>>,
) {
  const x = Float64Array.from(posed.x0, (v, q) => v + 0.3 * Math.sin(q * 1.7));
  const c = exactCurvature(posed, 100, engine)!;
  return (await c.probe(x, async () => {}, undefined)) as BlockInverse;
}

describe('exact curvature blocks swept in shard workers', () => {
  // The JS fused loop's shards hold their own arrays; the WASM kernel's are views
  // of its memory, targets at a stride of Kmax rounded up to 4.
  for (const kernel of ['fused', 'wasm'] as const) {
    it(`equal this thread's sweep (3 shards, ${kernel} kernel), items without cells included`, async () => {
      const posed = problem();
      expect(posed.problem.layout.Kmax).toBe(6);
      const here = await blocksAt(posed);
      const engine = await createNodeParallelEngine(posed.problem, 3, kernel);
      try {
        expect(engine.curvature).toBeDefined();
        const there = await blocksAt(posed, engine);
        const { I } = posed.problem.layout;
        const itemsEnd = here.off[I];
        // Each item is swept whole in one shard in the same cell order: the
        // same bits. An item without cells has its prior's block alone.
        expect(Array.from(there.data.subarray(0, itemsEnd))).toEqual(
          Array.from(here.data.subarray(0, itemsEnd)),
        );
        // The LLMs' and the gate's blocks are summed over the shards: round-off
        // only, then their eigenvectors (signs may flip) and inverse eigenvalues.
        const B = here.off.length - 1;
        for (let b = I; b < B; b++) {
          const n = here.plan.start[b + 1] - here.plan.start[b];
          const lamAt = here.off[b] + n * n;
          for (let k = 0; k < n; k++) {
            const a = here.data[lamAt + k];
            expect(Math.abs(there.data[lamAt + k] - a)).toBeLessThanOrEqual(1e-8 * Math.abs(a));
          }
        }
      } finally {
        engine.dispose();
      }
    });
  }

  it('an item without cells gets its prior: 1/|λ| of the slopes is the prior variance', async () => {
    const posed = problem();
    const inv = await blocksAt(posed);
    const n = inv.plan.start[1] - inv.plan.start[0];
    const lam = inv.data.subarray(inv.off[0] + n * n, inv.off[0] + n * n + n);
    const sd = posed.P.priors.a!.sd;
    // K − 1 directions of each centred group at the prior's precision, the null ones set aside.
    const variance = sd * sd;
    const hits = Array.from(lam).filter((v) => Math.abs(v - variance) <= 1e-10 * variance);
    expect(hits.length).toBeGreaterThanOrEqual(n / 2 - 1);
  });

  it('a cold run probes its first curvature, then fills exact blocks at its own interval', async () => {
    const posed = problem();
    const x = Float64Array.from(posed.x0, (v, q) => v + 0.3 * Math.sin(q * 1.7));
    const marker = { passes: 23 } as unknown as BlockInverse;
    let probes = 0;
    const probed = {
      every: 100,
      probe: async () => {
        probes++;
        return marker;
      },
    };
    const c = probedThenExact(probed, posed, 30)!;
    expect(c.every).toBe(100);
    expect(await c.probe(x, async () => {}, undefined)).toBe(marker);
    const second = (await c.probe(x, async () => {}, undefined)) as BlockInverse;
    expect(probes).toBe(1);
    expect(c.every).toBe(30);
    // The exact blocks' fill: one pass, the same bits as an exact curvature's.
    expect(second.passes).toBe(1);
    const exact = (await blocksAt(posed)).data;
    expect(Array.from(second.data)).toEqual(Array.from(exact));
    // Where exact blocks do not apply (or are not asked for) the probed curvature runs alone.
    expect(probedThenExact(probed, null, 30)).toBe(probed);
  });
});
