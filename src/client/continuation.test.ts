import { describe, expect, it } from 'vitest';
import { fitDataset } from '../core/fit/fit';
import { DEFAULT_SETTINGS, type FitSettings } from '../core/fit/types';
import { simulateNominal } from '../core/model/simulate';
import { FUSED_HANDLE } from '../core/fit/fit';
import { fitWithRecovery } from '../worker/checkpoint';
import { CONTINUE_STEPS, continuation } from './continuation';
import { STALL_STEPS } from '../core/fit/optim/types';
import { continuingCannotHelp, stopWords } from '../core/fit/stopWords';

const ds = simulateNominal({ J: 6, I: 30, seed: 3, K: 4 }).data;

/** Runs the continuation the way the worker does (fitWithRecovery), on the fused engine. */
const run = (settings: FitSettings, resume: Parameters<typeof fitWithRecovery>[2]['resume']) =>
  fitWithRecovery(ds, settings, {
    signal: new AbortController().signal,
    engine: FUSED_HANDLE,
    onProgress: () => undefined,
    resume,
  });

describe('Continue fitting', () => {
  it('continues an Adam fit with L-BFGS to convergence, at its own priors', async () => {
    const adam = await fitDataset(ds, { ...DEFAULT_SETTINGS, optimizer: 'adam', steps: 40 });
    expect(adam.converged).toBe(false);
    const entry = { id: 3, label: '#3 llmnrm · adam · fused', fit: adam, origin: 'fit' as const };
    const [settings, resume] = continuation(entry, ds);
    // The fast optimiser, λ = 1 (Adam's reference priors: no search), a cap it does not reach.
    expect(settings).toMatchObject({ optimizer: 'fast', priorStrength: 1, mode: 'default' });
    expect(settings.steps).toBe(40 + CONTINUE_STEPS);
    expect(resume).toMatchObject({ step: 40, kind: 'continue', replaces: entry.label });
    const next = await run(settings, resume);
    expect(next.converged).toBe(true);
    expect(next.stopReason).toBe('gradient');
    expect(next.steps).toBeGreaterThan(40);
    expect(next.objective).toBeLessThan(adam.objective);
    // Its own objective: the priors in force are Adam's.
    expect(next.priors).toEqual(adam.priors);
  });

  it("keeps a default fit's chosen λ rather than searching again", async () => {
    const capped = await fitDataset(ds, { ...DEFAULT_SETTINGS, steps: 5, priorStrength: 2 });
    const [settings] = continuation({ id: 1, label: '#1', fit: capped, origin: 'fit' }, ds);
    expect(settings.priorStrength).toBe(2);
  });

  it('a paper-mode fit (eq. 10) continues until it stalls at the kink, and says so', async () => {
    // Eq. 10's b̃ divides by key slopes that cross zero: before the stall rule
    // this continuation crept 1,000,000 steps (212.05 → 211.13), never converging.
    const paper = await fitDataset(ds, { ...DEFAULT_SETTINGS, mode: 'paper', steps: 40 });
    expect(paper.gate).toBe('eq10');
    const entry = { id: 2, label: '#2 llmnrm · paper', fit: paper, origin: 'fit' as const };
    const [settings, resume] = continuation(entry, ds);
    expect(settings).toMatchObject({ mode: 'paper', gate: 'eq10', optimizer: 'fast' });
    const next = await run(settings, resume);
    expect(next.converged).toBe(false);
    expect(next.stopReason).toBe('stalled');
    expect(next.steps).toBeLessThan(40 + 50 * STALL_STEPS);
    expect(next.objective).toBeLessThan(paper.objective);
    expect(stopWords(next)).toContain("Eq. 10's gate divides by an item's key slope");
    expect(continuingCannotHelp(next)).toBe(true);
  });
});
