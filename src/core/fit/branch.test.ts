import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadDatasetFromPaths } from '../../node/files';
import { subsetDataset } from '../data/subset';
import { GATE_SHUT } from '../model/gate';
import { simulateNominal } from '../model/simulate';
import { gateShutAt, SHUT_START_W0, shutAt, shutStart, twoStarts } from './branch';
import { keptStart, OPEN_T, openGainT } from './startRule';
import { fitDataset } from './fit';
import { pose } from './pose';
import { DEFAULT_SETTINGS, type FitSettings } from './types';
import type { StrengthChoice } from './strength';

const DEMO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../public/demo');

describe('keeping one of two starts', () => {
  it('keeps the open start only where its gain over the folds has a paired t above OPEN_T', () => {
    expect(OPEN_T).toBe(2);
    const open = [0.4, 0.41, 0.42, 0.43, 0.44];
    const shutBy = (d: number[]) => open.map((v, k) => v + d[k]);
    // Gains 0.01 … 0.05 over five folds: mean 0.03, sd 0.0158, t = 0.03 / (0.0158 / √5) = 4.24.
    const gains = [0.01, 0.02, 0.03, 0.04, 0.05];
    expect(openGainT(open, shutBy(gains))).toBeCloseTo(4.243, 3);
    expect(keptStart(open, shutBy(gains))).toBe(0);
    // Two draws (ten folds, each cell in two): the t over the ten is 6.36, divided by √2 = 4.50.
    const twice = [...open, ...open];
    expect(openGainT(twice, [...shutBy(gains), ...shutBy(gains)])).toBeCloseTo(4.5, 3);
    // Gains 0.01, 0, 0.02, 0, 0.01: mean 0.008, sd 0.00837, t = 2.14; the last fold without its gain: 1.5.
    expect(openGainT(open, shutBy([0.01, 0, 0.02, 0, 0.01]))).toBeCloseTo(2.138, 3);
    expect(keptStart(open, shutBy([0.01, 0, 0.02, 0, 0.01]))).toBe(0);
    expect(keptStart(open, shutBy([0.01, 0, 0.02, 0, 0]))).toBe(1);
    // A tie, and the open start worse: shut.
    expect(keptStart(open, open)).toBe(1);
    expect(keptStart(open, shutBy([-0.01, -0.02, -0.03, -0.04, -0.05]))).toBe(1);
  });

  const { data } = simulateNominal({ J: 6, I: 20, seed: 2 });
  const settings = (s: Partial<FitSettings>): FitSettings => ({
    ...DEFAULT_SETTINGS,
    gate: 'margin',
    ...s,
  });
  const searched = { trials: [{ lambda: 1, heldOutLoss: 1, converged: true }], share: false };
  const sel = (s: Partial<StrengthChoice> = {}) => ({ ...searched, ...s }) as StrengthChoice;

  it('shuts the gate at the start and changes nothing else', () => {
    const posed = pose(data, settings({ model: 'llmnrm' }));
    const x = shutStart(posed, posed.x0);
    const w0 = posed.kind === 'nominal' ? posed.P.free.w0 : -1;
    expect(SHUT_START_W0).toBe(-30);
    expect(x[w0]).toBe(-30);
    expect(posed.x0[w0]).toBe(-2); // the documented start, untouched
    let changed = 0;
    x.forEach((v, q) => (changed += v === posed.x0[q] ? 0 : 1));
    expect(changed).toBe(1);
  });

  it('shuts the gate at an optimum: w0 −30, κ back at the start, the rest as fitted', () => {
    const posed = pose(data, settings({ model: 'llmnrm' }));
    if (posed.kind !== 'nominal') throw new Error('nominal expected');
    const { w0, kappaBar } = posed.P.free;
    const x = posed.x0.map((v, q) => v + 0.01 * (q + 1));
    const out = shutAt(posed, x, posed.x0);
    expect(out[w0]).toBe(-30);
    expect(out[kappaBar]).toBe(posed.x0[kappaBar]);
    let changed = 0;
    out.forEach((v, q) => (changed += v === x[q] ? 0 : 1));
    expect(changed).toBe(2);
    expect(x[w0]).toBe(posed.x0[w0] + 0.01 * (w0 + 1)); // the optimum itself untouched
  });

  it('sees the gate shut only where G is below GATE_SHUT at every observed cell', () => {
    const posed = pose(data, settings({ model: 'llmnrm' }));
    const w0 = posed.kind === 'nominal' ? posed.P.free.w0 : -1;
    const at = (v: number) => {
      const x = Float64Array.from(posed.x0);
      x[w0] = v;
      return gateShutAt(posed, x, data);
    };
    // The documented start's κ times any cell's margin is far below 40 here:
    // σ(−60 ± 40) < 2e-9 everywhere, σ(60 ± 40) > 0.99.
    expect(at(-60)).toBe(true);
    expect(at(60)).toBe(false);
    // A binary model has no gate.
    const binary = pose(data, settings({ model: '2pl' }));
    expect(gateShutAt(binary, binary.x0, data)).toBe(true);
  });

  it('runs two starts only in the default mode, with the margin gate, after a search on every item', () => {
    const p = (s: Partial<FitSettings>) => pose(data, settings(s));
    const ll = settings({ model: 'llmnrm' });
    expect(twoStarts(ll, p({ model: 'llmnrm' }), sel(), false)).toBe(true);
    expect(twoStarts(ll, p({ model: 'llmnrm' }), sel(), true)).toBe(false); // a given start
    expect(twoStarts(ll, p({ model: 'llmnrm' }), null, false)).toBe(false); // λ given
    expect(twoStarts(ll, p({ model: 'llmnrm' }), sel({ share: true }), false)).toBe(false);
    expect(twoStarts(ll, p({ model: 'llmnrm' }), sel({ trials: [] }), false)).toBe(false);
    const nf = settings({ model: 'no-fallback' });
    expect(twoStarts(nf, p({ model: 'no-fallback' }), sel(), false)).toBe(false);
    const eq10 = settings({ model: 'llmnrm', gate: 'eq10' });
    expect(twoStarts(eq10, p({ model: 'llmnrm', gate: 'eq10' }), sel(), false)).toBe(false);
    const paper = settings({ model: 'llmnrm', mode: 'paper', gate: 'eq10' });
    expect(
      twoStarts(paper, p({ model: 'llmnrm', mode: 'paper', gate: 'eq10' }), sel(), false),
    ).toBe(false);
  });
});

describe('the reading demo: the shut start predicts better and is kept', () => {
  it('keeps the gate shut, and the fit then equals no-fallback at the same λ', async () => {
    const ds0 = await loadDatasetFromPaths([path.join(DEMO, 'econ-reading.wide.csv')]);
    const items = ds0.benchmarks.flatMap((b, i) => (b.includes('reading') ? [i] : []));
    const ds = subsetDataset(ds0, undefined, items);
    const fit = await fitDataset(ds, { model: 'llmnrm' });
    expect(fit.converged).toBe(true);
    const starts = fit.priorSelection!.starts!;
    expect(starts.map((s) => [s.start, s.w0, s.kept])).toEqual([
      ['open', -2, false],
      ['shut', -30, true],
    ]);
    // Measured 2026-12-04: open 0.32690, shut 0.32171 per held-out cell (1.6% apart).
    expect(starts[0].heldOutLoss / starts[1].heldOutLoss).toBeGreaterThan(1.005);
    expect(fit.gateMax!).toBeLessThan(GATE_SHUT);
    // With the gate shut the model is no-fallback: the same θ at the same λ.
    const nf = await fitDataset(ds, {
      model: 'no-fallback',
      priorStrength: fit.settings.priorStrength,
    });
    const byId = new Map(nf.llms.map((l) => [l.id, l.theta]));
    let gap = 0;
    for (const l of fit.llms) gap = Math.max(gap, Math.abs(l.theta - byId.get(l.id)!));
    expect(gap).toBeLessThan(0.02);
  }, 120_000);
});
