import { describe, expect, it } from 'vitest';
import type { Dataset } from '../data/types';
import { argmaxAt } from '../model/cells';
import { simulateNominal } from '../model/simulate';
import { MODEL_TYPES } from '../model/types';
import { fitDataset } from './fit';
import type { FitJson } from './types';

/**
 * Every number anywhere in a fit.json, recursively, except standard errors:
 * where the data cannot identify a parameter (an item seen by two LLMs in a
 * paper-mode fit, which has no item prior) its SE is NaN by design (null in
 * the JSON file), never a made-up number.
 */
function numbers(x: unknown, out: number[] = []): number[] {
  if (typeof x === 'number') out.push(x);
  else if (Array.isArray(x)) x.forEach((v) => numbers(v, out));
  else if (x && typeof x === 'object')
    Object.entries(x).forEach(([k, v]) => {
      if (!k.endsWith('SE')) numbers(v, out);
    });
  return out;
}

function allFinite(fit: FitJson): boolean {
  // accuracy is NaN by definition for an LLM with no observed item; none here has none.
  return numbers({ ...fit, settings: undefined }).every(Number.isFinite);
}

function base(seed: number, K?: number): Dataset {
  return simulateNominal({ J: 12, I: 40, seed, K, concentration: 30 }).data;
}

function oneHot(ds: Dataset, i: number, j: number, k: number) {
  const off = (j * ds.I + i) * ds.Kmax;
  for (let q = 0; q < ds.Kmax; q++) ds.obs[off + q] = q === k ? 1 : 0;
}

const cases: Record<string, () => Dataset> = {
  'one-hot distributions everywhere': () => {
    const ds = base(1);
    for (let j = 0; j < ds.J; j++)
      for (let i = 0; i < ds.I; i++)
        oneHot(ds, i, j, argmaxAt(ds.obs, (j * ds.I + i) * ds.Kmax, ds.nOptions[i]));
    return ds;
  },
  'probabilities of 1e-30': () => {
    const ds = base(2);
    for (let x = 0; x < ds.obs.length; x++)
      if (ds.obs[x] > 0 && ds.obs[x] < 0.05) ds.obs[x] = 1e-30;
    return ds;
  },
  'K = 2 mixed with K = 10': () => {
    const a = simulateNominal({ J: 12, I: 40, seed: 3, concentration: 30 }).data;
    expect(Math.min(...a.nOptions)).toBeLessThanOrEqual(3);
    expect(a.Kmax).toBe(10);
    return a;
  },
  'an item every LLM answers correctly': () => {
    const ds = base(4);
    for (let j = 0; j < ds.J; j++) oneHot(ds, 0, j, ds.key[0]);
    return ds;
  },
  'an LLM with a single observed item': () => {
    const ds = base(5);
    for (let i = 1; i < ds.I; i++) ds.observed[0 * ds.I + i] = 0;
    for (let i = 1; i < ds.I; i++) ds.obs.fill(0, i * ds.Kmax, (i + 1) * ds.Kmax);
    return ds;
  },
  '95% missing cells': () => {
    const ds = simulateNominal({ J: 40, I: 80, seed: 6, missing: 0.95, concentration: 30 }).data;
    // Keep every LLM observed somewhere so accuracy is defined.
    for (let j = 0; j < ds.J; j++) ds.observed[j * ds.I + (j % ds.I)] = 1;
    return ds;
  },
  'two identical LLMs': () => {
    const ds = base(7);
    for (let i = 0; i < ds.I; i++) {
      ds.observed[1 * ds.I + i] = ds.observed[0 * ds.I + i];
      for (let k = 0; k < ds.Kmax; k++)
        ds.obs[(1 * ds.I + i) * ds.Kmax + k] = ds.obs[(0 * ds.I + i) * ds.Kmax + k];
    }
    return ds;
  },
};

describe('numerically extreme but valid data fits without NaN or Inf', () => {
  for (const [name, make] of Object.entries(cases)) {
    it(name, async () => {
      const ds = make();
      for (const model of MODEL_TYPES) {
        const fit = await fitDataset(ds, { model, steps: 400 });
        expect(
          allFinite(fit),
          `${model}: ${JSON.stringify(numbers(fit).filter((v) => !Number.isFinite(v)))}`,
        ).toBe(true);
      }
      const adam = await fitDataset(ds, {
        model: 'llmnrm',
        mode: 'paper',
        optimizer: 'adam',
        steps: 200,
      });
      expect(allFinite(adam)).toBe(true);
    });
  }

  it('says what it cannot identify', async () => {
    const fit = await fitDataset(cases['an item every LLM answers correctly'](), {
      model: 'llmnrm',
      steps: 200,
    });
    expect(fit.notes.join(' ')).toMatch(/no variance.*item-0/);
    const fit2 = await fitDataset(cases['an LLM with a single observed item'](), {
      model: 'llmnrm',
      steps: 200,
    });
    expect(fit2.notes.join(' ')).toMatch(/fewer than 3 items: llm-0/);
  });
});
