import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadDatasetFromPaths } from '../../node/files';
import { subsetDataset } from '../data/subset';
import { STRENGTH_GRID } from '../model/hprior';
import { simulateNominal } from '../model/simulate';
import { fitDataset, FUSED_HANDLE } from './fit';
import { nominalFreeLayout } from '../model/params';
import { nominalFlags, nominalLayout, type NominalLayout } from '../model/types';
import { pose } from './pose';
import { choosePriorStrength, refineStrength, searchItems } from './strength';
import { DEFAULT_SETTINGS } from './types';

const DEMO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../public/demo');

describe('the prior-strength search on a share of the items (large data sets)', () => {
  const { data } = simulateNominal({ J: 12, I: 300, seed: 3, missing: 0, concentration: 100 });
  const n = data.J * data.I; // 3,600 observed cells

  it('keeps every item up to the cap and returns null', () => {
    expect(searchItems(data, n, 1, n)).toBeNull();
  });

  it('above the cap keeps about cap / n of the items, the same ones in any item order', () => {
    const kept = searchItems(data, n, 1, 1200)!;
    // A binomial(300, 1/3) count: mean 100, sd 8.2; ±40 is about 5 sd.
    expect(kept.length).toBeGreaterThan(60);
    expect(kept.length).toBeLessThan(140);
    const ids = new Set(kept.map((i) => data.itemIds[i]));
    const reversed = subsetDataset(
      data,
      undefined,
      Array.from({ length: data.I }, (_, i) => data.I - 1 - i),
    );
    const again = searchItems(reversed, n, 1, 1200)!;
    expect(new Set(again.map((i) => reversed.itemIds[i]))).toEqual(ids);
    // Another seed draws another share.
    const other = new Set(searchItems(data, n, 2, 1200)!.map((i) => data.itemIds[i]));
    expect(other).not.toEqual(ids);
  });

  it("makes each fold's engine once for the grid, its extensions and the refined λ, and frees them all", async () => {
    const settings = { ...DEFAULT_SETTINGS, model: 'llmnrm' as const };
    let made = 0;
    let freed = 0;
    const counting = {
      ...FUSED_HANDLE,
      create: async (p: Parameters<typeof FUSED_HANDLE.create>[0]) => {
        made++;
        const e = await FUSED_HANDLE.create(p);
        return { ...e, evaluate: e.evaluate.bind(e), dispose: () => (freed++, e.dispose()) };
      },
    };
    const sel = await choosePriorStrength(data, settings, counting, { maxCells: 1200 });
    // More than the grid's candidates were fitted on every fold (an extension or the refined λ).
    expect(sel.trials.length).toBeGreaterThan(STRENGTH_GRID.length);
    // One engine a fold (5 folds a draw), not one a fold and candidate run.
    expect(made).toBe(5 * sel.folds!.draws);
    expect(freed).toBe(made);
  }, 120_000);

  it('says it searched a share, returns no warm start, and still picks the best candidate', async () => {
    const settings = { ...DEFAULT_SETTINGS, model: 'llmnrm' as const };
    const sel = await choosePriorStrength(data, settings, FUSED_HANDLE, { maxCells: 1200 });
    const kept = searchItems(data, n, settings.seed, 1200)!;
    expect(sel.reason).toContain(`on ${kept.length} of the 300 items`);
    expect(sel.x).toBeNull();
    // The grid, extended by factors of 2 while its best point is at an end, then
    // (when λ falls between candidates) the refined λ.
    // (A λ at a power of 2 is a candidate of the grid or of its extension: no refinement ran.)
    const refined = !Number.isInteger(Math.log2(sel.lambda));
    const grid = refined ? sel.trials.slice(0, -1) : sel.trials;
    const lambdas = grid.map((t) => t.lambda);
    expect(lambdas).toEqual([...lambdas].sort((a, b) => a - b));
    expect(lambdas.filter((l) => STRENGTH_GRID.includes(l))).toEqual([...STRENGTH_GRID]);
    for (let m = 1; m < lambdas.length; m++) expect(lambdas[m] / lambdas[m - 1]).toBe(2);
    expect(sel.lambda).toBe(
      refineStrength(
        lambdas,
        grid.map((t) => t.heldOutLoss),
      ),
    );
    // A refined λ between grid points is scored by every fold once more.
    if (refined) expect(sel.trials.at(-1)!.lambda).toBe(sel.lambda);
    // The whole search on the items kept gives the same choice.
    const onShare = await choosePriorStrength(
      subsetDataset(data, undefined, kept),
      settings,
      FUSED_HANDLE,
    );
    expect(onShare.lambda).toBe(sel.lambda);
    expect(onShare.trials.map((t) => t.heldOutLoss)).toEqual(sel.trials.map((t) => t.heldOutLoss));
    expect(onShare.x).not.toBeNull();

    // Given the full problem, the share's end point is spread over it: LLMs,
    // gate and searched items from the share; other items at the documented start.
    const full = pose(data, settings);
    const spread = (
      await choosePriorStrength(data, settings, FUSED_HANDLE, { maxCells: 1200, full })
    ).x!;
    expect(spread).toHaveLength(full.x0.length);
    const shareX = onShare.x!;
    const F = nominalFreeLayout(
      full.problem.layout as NominalLayout,
      nominalFlags('llmnrm', 'eq10'),
    );
    const sub = subsetDataset(data, undefined, kept);
    const S = nominalFreeLayout(
      nominalLayout(sub.J, sub.I, sub.Kmax),
      nominalFlags('llmnrm', 'eq10'),
    );
    const at = (x: Float64Array, from: number, n: number) => Array.from(x.subarray(from, from + n));
    for (const j of [0, 5, 11]) {
      expect(spread[F.theta + j]).toBe(shareX[S.theta + j]);
      expect(spread[F.sBar + j]).toBe(shareX[S.sBar + j]);
    }
    expect(at(spread, F.w0, 2)).toEqual(at(shareX, S.w0, 2));
    const keptSet = new Set(kept);
    const other = [...Array(data.I).keys()].find((i) => !keptSet.has(i))!;
    const K = data.nOptions[other];
    expect(at(spread, F.a + other * data.Kmax, K)).toEqual(at(full.x0, F.a + other * data.Kmax, K));
    const b = 3; // the fourth item searched
    const Kb = data.nOptions[kept[b]];
    expect(at(spread, F.c + kept[b] * data.Kmax, Kb)).toEqual(at(shareX, S.c + b * sub.Kmax, Kb));
  }, 180_000);
});

describe('a search on a share of the items starts the full fit (real data: the demo)', () => {
  it("the final fit converges to the optimum at its λ, from the share's end point", async () => {
    const ds = await loadDatasetFromPaths([path.join(DEMO, 'econ-reading.wide.csv')]);
    // A cap of 1,600 of the demo's 6,150 cells: the search runs on about a quarter of the items.
    const onShare = await fitDataset(ds, {}, { searchMaxCells: 1600 });
    expect(onShare.priorSelection!.reason).toMatch(
      /on \d+ of the 345 items .*; the final fit starts from its end point, with exact curvature blocks, refilled every 30 steps, after the Adam warm-up$/,
    );
    // From the documented start, the first such fit ran to the 2,500-step cap
    // (3,203 passes, not converged; measured 2026-12-01).
    expect(onShare.converged).toBe(true);
    // 566 passes with probed blocks (2026-12-05), 167 with exact ones.
    expect(onShare.passes).toBeLessThan(300);
    // Not compared with a cold fit at the same λ: under the margin gate (issue 27,
    // in progress) the demo has several optima; on 2026-12-03 this start converged
    // at 1,729.57 while the cold start stopped at the cap at 1,713.03.
  }, 240_000);
});

describe('refineStrength: the vertex of the parabola in log λ through the best grid point and its neighbours', () => {
  const grid = [0.5, 1, 2, 4];
  const at = (u0: number, l: number) => grid.map((g) => (Math.log(g) - u0) ** 2 + l);
  // The vertex u* is rounded to 1/16 of a doubling: λ = 2^(round(16 log2 e^u*) / 16), 3 digits.
  it('finds the vertex of an exact parabola between grid points, on 16 steps per doubling', () => {
    // 1.5: 16·log2 1.5 = 9.36 → 9, 2^(9/16) = 1.476; 0.8: −5.15 → −5, 2^(−5/16) = 0.805.
    expect(refineStrength(grid, at(Math.log(1.5), 0.3))).toBe(1.48);
    expect(refineStrength(grid, at(Math.log(0.8), 0.3))).toBe(0.805);
    // 2.83 = 2^1.5 exactly on a step: 2^(24/16) = 2.828.
    expect(refineStrength(grid, at(1.5 * Math.LN2, 0.3))).toBe(2.83);
  });
  it('works on an uneven grid: vertex 1.8 through (1, 2, 3)', () => {
    // Losses (u − ln 1.8)² at u = ln 1, ln 2, ln 3, to 4 decimals: 0.3455, 0.0111, 0.2609;
    // vertex 1.80005 (by hand), 16·log2 1.8 = 13.57 → 14, 2^(14/16) = 1.834.
    expect(refineStrength([1, 2, 3], [0.3455, 0.0111, 0.2609])).toBe(1.83);
  });
  it('keeps the end of the grid when the best point is there', () => {
    expect(refineStrength(grid, [0.5, 0.4, 0.3, 0.2])).toBe(4);
    expect(refineStrength(grid, [0.2, 0.3, 0.4, 0.5])).toBe(0.5);
  });
  it('an exact tie of the neighbours gives the best grid point itself', () => {
    expect(refineStrength(grid, [0.5, 0.4, 0.3, 0.4])).toBe(2);
  });
  it('keeps λ within 1/8–16: a neighbour beyond (1/16, 32) only shapes the parabola', () => {
    const wide = [1 / 16, 0.125, 0.25, 0.5, 1, 2, 4, 8, 16, 32];
    // The pooled demo's seed 7: best at 16, its neighbour 32 evaluated; the
    // parabola through (8, 16, 32) by hand: u* = ln 16 − ln 2 · (0.33894 −
    // 0.33786) / (2 (0.33894 − 2 · 0.33775 + 0.33786)) = ln 16 − ln 2 · 0.4154,
    // λ* = 12.00; 16 · log2 12.00 = 57.36 → 57, 2^(57/16) = 11.76.
    const pooled = wide.map((l) =>
      l === 8 ? 0.33786 : l === 16 ? 0.33775 : l === 32 ? 0.33894 : 1,
    );
    expect(refineStrength(wide, pooled)).toBe(11.8);
    // Best at 32 (beyond): λ is the range's end, 16; at 1/16: 1/8.
    expect(
      refineStrength(
        wide,
        wide.map((l) => -Math.log(l)),
      ),
    ).toBe(16);
    expect(
      refineStrength(
        wide,
        wide.map((l) => Math.log(l)),
      ),
    ).toBe(0.125);
    // A vertex between 16 and 32 is kept at 16.
    const to24 = wide.map((g) => (Math.log(g) - Math.log(24)) ** 2);
    expect(refineStrength(wide, to24)).toBe(16);
  });
});

describe('a share whose search ends with the fallback gate shut', () => {
  it('starts the final fit without the Adam warm-up, at the optimum a cold fit at its λ reaches', async () => {
    // Simulated with the gate shut in the truth (w0 −20, κ 0), the margin form, as the NAEP fits end.
    const { data } = simulateNominal({
      J: 20,
      I: 240,
      seed: 11,
      missing: 0.05,
      concentration: 50,
      gate: 'shut',
      gateForm: 'margin',
    });
    const onShare = await fitDataset(data, {}, { searchMaxCells: 1500 });
    expect(onShare.priorSelection!.reason).toMatch(
      /the final fit starts from its end point, with exact curvature blocks, refilled every 30 steps, and, the fallback gate being shut there, no Adam warm-up$/,
    );
    expect(onShare.converged).toBe(true);
    // The same λ from the documented start (Adam warm-up, probed blocks): with the
    // gate shut the objective has one optimum, so both ends agree.
    const lambda = onShare.priorSelection!.lambda;
    const cold = await fitDataset(data, { priorStrength: lambda });
    expect(cold.converged).toBe(true);
    const total = (f: typeof cold) => f.objective + f.penalty;
    expect(Math.abs(total(onShare) - total(cold))).toBeLessThan(1e-6 * total(cold));
    expect(onShare.passes).toBeLessThan(cold.passes);
  }, 240_000);
});
