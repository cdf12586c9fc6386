import { describe, expect, it } from 'vitest';
import { simulateNominal } from '../model/simulate';
import type { ModelType } from '../model/types';
import { compareModels, nParameters } from './compare';
import { simulateBinary } from './simulate';

const MODELS: ModelType[] = ['llmnrm', 'nrm-soft', '2pl'];
const SEEDS = [1, 2, 3];

function simulate(gen: ModelType, seed: number) {
  const J = 30;
  const I = 40;
  if (gen === '2pl') return simulateBinary({ J, I, seed, model: '2pl' }).data;
  return simulateNominal({ J, I, seed, K: 4, model: gen as 'llmnrm', concentration: 50 }).data;
}

describe('nParameters', () => {
  it('counts the free parameters after constraints', () => {
    const ds = simulateBinary({ J: 10, I: 5, K: 4 }).data;
    expect(nParameters('nrm-soft', ds)).toBe(8 + 5 * 6);
    expect(nParameters('1pl', ds)).toBe(8 + 1 + 5 + 5 * 2);
    expect(nParameters('2pl', ds)).toBe(8 + 10 + 5 * 2);
    expect(nParameters('llmnrm', ds)).toBe(8 + 9 + 9 * 3 + 10 * 3 + 2 + 5 * 6);
    expect(nParameters('nrm-soft', ds, 'paper')).toBe(10 + 5 * 6);
  });
});

describe('model comparison on data simulated from each model (30 LLMs × 40 items, 3 folds)', () => {
  it('the generating model has the lowest held-out log-loss in most seeds', async () => {
    const wins: Record<string, { bic: number; heldOut: number }> = {};
    for (const gen of MODELS) {
      wins[gen] = { bic: 0, heldOut: 0 };
      for (const seed of SEEDS) {
        const { rows } = await compareModels(simulate(gen, seed), {
          models: MODELS,
          folds: 3,
          seed,
          // A fixed prior strength skips the held-out search: the check is about
          // the criteria, and this keeps the test to seconds per fit. The nominal
          // models' a and c at one sd for all (the LLM-NRM's would sit at its
          // fixed 2 and 6, Bock's NRM's at λ·r = 1 and 3: unequal priors).
          fitSettings: { priorStrength: 1, prior: { a: 2, c: 6 } },
        });
        const best = (k: 'BIC' | 'heldOutLogLoss') =>
          rows.reduce((a, b) => (b[k] < a[k] ? b : a)).model;
        if (best('BIC') === gen) wins[gen].bic++;
        if (best('heldOutLogLoss') === gen) wins[gen].heldOut++;
        for (const r of rows) {
          expect(r.AIC).toBeCloseTo(-2 * r.logLik + 2 * r.nPar, 6);
          expect(r.nCells).toBe(1200);
        }
      }
    }
    console.log('compare check (wins of 3 seeds)', JSON.stringify(wins));
    for (const gen of MODELS) expect(wins[gen].heldOut).toBeGreaterThanOrEqual(2);
    // BIC counts each soft cell as one draw and charges the LLM-specific terms
    // (s, δ, ρ per LLM): it picks the simpler generators but not the LLM-NRM
    // at this size, which is why held-out log-loss is the primary criterion.
    expect(wins['nrm-soft'].bic).toBeGreaterThanOrEqual(2);
    expect(wins['2pl'].bic).toBeGreaterThanOrEqual(2);
  }, 300_000);
});
