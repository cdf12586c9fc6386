import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadDataset } from '../core/data/load';
import { subsetDataset } from '../core/data/subset';
import { FUSED_HANDLE, fitDataset } from '../core/fit/fit';
import { runEvaluation } from './evaluate';
import type { EvalProgressReport, EvalRequest } from '../boundary/evaluateProtocol';

// The real NAEP demo, cut to 8 LLMs so each run takes a second or two.
const demo = ['econ-reading.wide.csv', 'econ-reading.items.csv'].map((name) => ({
  name,
  blob: new Blob([readFileSync(`public/demo/${name}`, 'utf8')]),
}));
const full = await loadDataset(demo);
const ds = subsetDataset(full, [0, 2, 4, 6, 8, 10, 12, 14]);

const live = () => new AbortController().signal;
// The plain-TypeScript engine: these tests check the runs, not engine choice.
const fused = async () => FUSED_HANDLE;

describe('runEvaluation (the worker side of the Evaluate tab)', () => {
  it('runs Table 1 and reports throttled progress tagged with its kind', async () => {
    const progress: EvalProgressReport[] = [];
    const req: EvalRequest = {
      kind: 'cv',
      models: ['2pl'],
      folds: 2,
      seed: 3,
      fitSettings: { engine: 'fused' },
    };
    const reply = await runEvaluation(ds, req, live(), (p) => progress.push(p), fused);
    expect(reply.kind).toBe('cv');
    if (reply.kind !== 'cv') return;
    expect(reply.result.folds).toBe(2);
    expect(reply.result.summary.map((r) => r.model)).toEqual(['2pl']);
    expect(Number(reply.result.summary[0].binaryAcc_mean)).toBeGreaterThan(0.6);
    expect(reply.seconds).toBeGreaterThan(0);
    expect(progress[0]).toMatchObject({ kind: 'cv', done: 0, total: 2, stage: 'fold 1/2: 2pl' });
  });

  it('answers Figs 2a/2b and Table 2 from fits without fitting', async () => {
    const fit = await fitDataset(ds, { model: 'llmnrm' });
    const info = await runEvaluation(ds, { kind: 'info', fit }, live(), () => undefined);
    expect(info.kind === 'info' && info.result.map((r) => r.benchmark)).toEqual([
      'naep-economics',
      'naep-reading',
      'all',
    ]);
    // External scores that rank the LLMs exactly as θ does: ρ = 1.
    const scores = fit.llms.map((l) => ({ name: `ext-${l.id}`, score: 1000 + 100 * l.theta }));
    const matches = fit.llms.map((l) => ({
      ours: l.id,
      theirs: `ext-${l.id}`,
      how: 'exact' as const,
    }));
    const ext = await runEvaluation(
      null,
      { kind: 'external', fits: [fit], scores, matches, bootstrap: 50, seed: 1 },
      live(),
      () => undefined,
    );
    expect(ext.kind).toBe('external');
    if (ext.kind !== 'external') return;
    expect(ext.result.rows[0]).toMatchObject({ measure: 'theta', model: 'llmnrm', n: 8 });
    expect(ext.result.rows[0].spearman).toBeCloseTo(1, 12);
  });

  it('rejects with an AbortError when cancelled, and says when no data is loaded', async () => {
    const ac = new AbortController();
    ac.abort();
    const req: EvalRequest = {
      kind: 'calibrate',
      models: ['2pl'],
      sizes: [2, Infinity],
      draws: 1,
      heldOut: 0.25,
      seed: 1,
      scoreChannel: 'option',
      fitSettings: { engine: 'fused' },
    };
    await expect(runEvaluation(ds, req, ac.signal, () => undefined, fused)).rejects.toMatchObject({
      name: 'AbortError',
    });
    await expect(runEvaluation(null, req, live(), () => undefined)).rejects.toThrow(
      'No data is loaded',
    );
  });
});
