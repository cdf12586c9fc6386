import { describe, expect, it } from 'vitest';
import { OPTION_LABELS } from '../data/types';
import { subsetDataset } from '../data/subset';
import { fitDataset } from '../fit/fit';
import { scoreLlms } from '../fit/score';
import { iteminfoAt } from '../model/itemfns';
import { allBtilde, nominalProbs } from '../model/nominal';
import { simulateNominal } from '../model/simulate';
import { nominalFlags } from '../model/types';
import type { GateForm } from '../model/gate';
import { bankAsFit, bankFromFit, type ItemBank } from './bank';
import { estimateLlm, responseTarget, type Response } from './estimate';
import {
  responseInfo,
  responseModel,
  responseProbs,
  type LlmTerms,
  type ModelItem,
  type ResponseModel,
} from './model';

const sim = simulateNominal({ J: 12, I: 40, seed: 8, concentration: 100 });
const { truth, layout: L, data } = sim;

/** A bank holding the simulation's true item and gate parameters (`gate`: the fit's form). */
function trueBank(gate?: GateForm): ItemBank {
  const fit = {
    schema: 'llm-nrm-fit/1',
    model: 'llmnrm',
    ...(gate ? { gate } : {}),
    Kmax: L.Kmax,
    global: { w0: truth[L.w0], kappa: truth[L.kappa] },
    items: data.itemIds.map((id, i) => ({
      id,
      benchmark: data.benchmarks[i],
      key: OPTION_LABELS[data.key[i]],
      nOptions: data.nOptions[i],
      a: Array.from(truth.subarray(L.a + i * L.Kmax, L.a + i * L.Kmax + data.nOptions[i])),
      c: Array.from(truth.subarray(L.c + i * L.Kmax, L.c + i * L.Kmax + data.nOptions[i])),
      b: 0,
    })),
    llms: [],
    settings: {},
  };
  return bankFromFit(fit as never, { dataFiles: [] });
}

const termsOf = (j: number): LlmTerms => ({
  s: truth[L.s + j],
  delta: Array.from(truth.subarray(L.delta + j * L.Kmax, L.delta + (j + 1) * L.Kmax)),
  rho: Array.from(truth.subarray(L.rho + j * L.Kmax, L.rho + (j + 1) * L.Kmax)),
});

/** Σ p (∂ log p/∂θ)² with ∂ log p/∂θ by a central difference of step h. */
function fdInfo(m: ResponseModel, it: ModelItem, theta: number, t: LlmTerms, h: number): number {
  const pp = responseProbs(m, it, theta + h, t);
  const pm = responseProbs(m, it, theta - h, t);
  const p = responseProbs(m, it, theta, t);
  let fd = 0;
  for (let k = 0; k < it.K; k++) fd += p[k] * ((Math.log(pp[k]) - Math.log(pm[k])) / (2 * h)) ** 2;
  return fd;
}

describe('one LLM’s response model on bank items', () => {
  const m = responseModel(trueBank());

  it('gives the LLM-NRM cell distribution of eq. 13 (as the fitting code computes it)', () => {
    const bt = allBtilde(truth, L, data.nOptions, data.key);
    const ref = new Float64Array(L.Kmax);
    const flags = nominalFlags('llmnrm', 'eq10');
    for (let j = 0; j < data.J; j++)
      for (let i = 0; i < data.I; i++) {
        nominalProbs(truth, L, flags, j, i, data.nOptions[i], data.key[i], bt[i], ref);
        const p = responseProbs(m, m.items[i], truth[L.theta + j], termsOf(j));
        p.forEach((v, k) => expect(v).toBeCloseTo(ref[k], 12));
      }
  });

  it('has Fisher information Σ p (∂ log p/∂θ)² matching a central difference of log p', () => {
    const h = 1e-5;
    for (const [j, i, theta] of [
      [0, 0, 0],
      [3, 7, -1.5],
      [5, 21, 2.2],
      [9, 33, 0.4],
    ]) {
      const t = termsOf(j);
      const it = m.items[i];
      expect(responseInfo(m, it, theta, t)).toBeCloseTo(fdInfo(m, it, theta, t, h), 6);
    }
  });

  it('reduces to the NRM item information without s, δ, ρ and the gate', () => {
    const soft = responseModel({ ...trueBank(), model: 'nrm-soft' });
    const it = soft.items[4];
    const neutral = { s: 1, delta: [], rho: [] };
    for (const theta of [-2, 0, 1.3])
      expect(responseInfo(soft, it, theta, neutral)).toBeCloseTo(
        iteminfoAt({ a: it.a, c: it.c, key: it.key }, theta).total,
        12,
      );
  });
});

describe('a bank from a fit with the margin gate (model/gate.ts)', () => {
  const m = responseModel(trueBank('margin'));

  it('keeps the form, and gives eq. 13 with G = σ[w0 − κ f_i(θ)], not eq. 10’s gate', () => {
    expect(trueBank('margin').gate).toBe('margin');
    expect(trueBank().gate).toBeUndefined();
    const flags = nominalFlags('llmnrm', 'margin');
    const eq10 = responseModel(trueBank());
    const ref = new Float64Array(L.Kmax);
    let apart = 0;
    for (let j = 0; j < data.J; j++)
      for (let i = 0; i < data.I; i++) {
        nominalProbs(truth, L, flags, j, i, data.nOptions[i], data.key[i], NaN, ref);
        const t = termsOf(j);
        const p = responseProbs(m, m.items[i], truth[L.theta + j], t);
        p.forEach((v, k) => expect(v).toBeCloseTo(ref[k], 12));
        const q = responseProbs(eq10, eq10.items[i], truth[L.theta + j], t);
        apart = Math.max(apart, ...q.map((v, k) => Math.abs(v - p[k])));
      }
    expect(apart).toBeGreaterThan(1e-3);
  });

  it('has Fisher information matching a central difference of log p (dG/dθ through f′)', () => {
    const h = 1e-5;
    for (const [j, i, theta] of [
      [0, 0, 0],
      [3, 7, -1.5],
      [5, 21, 2.2],
    ]) {
      const t = termsOf(j);
      const it = m.items[i];
      expect(responseInfo(m, it, theta, t)).toBeCloseTo(fdInfo(m, it, theta, t, h), 6);
    }
  });
});

describe('the per-LLM MAP used by adaptive testing', () => {
  it('agrees with scoreLlms on every item (θ, SE and terms), for llmnrm, nrm-soft and 2pl', async () => {
    const big = simulateNominal({ J: 26, I: 80, seed: 12, concentration: 100 }).data;
    const train = subsetDataset(
      big,
      Array.from({ length: 22 }, (_, j) => j),
    );
    const held = subsetDataset(big, [22, 23, 24, 25]);
    for (const model of ['llmnrm', 'nrm-soft', '2pl'] as const) {
      const bank = bankFromFit(await fitDataset(train, { model, steps: 600 }), { dataFiles: [] });
      const ref = await scoreLlms(held, bankAsFit(bank));
      const m = responseModel(bank);
      for (let j = 0; j < held.J; j++) {
        const rs: Response[] = held.itemIds.map((id, i) => {
          const b = m.index.get(id)!;
          const off = (j * held.I + i) * held.Kmax;
          return {
            item: b,
            y: responseTarget(m, m.items[b], held.obs.subarray(off, off + held.Kmax)),
          };
        });
        const est = await estimateLlm(m, rs);
        expect(Math.abs(est.theta - ref.llms[j].theta)).toBeLessThan(0.01);
        expect(Math.abs(est.se / ref.llms[j].thetaSE - 1)).toBeLessThan(0.03);
        expect(Math.abs(est.terms.s - ref.llms[j].s)).toBeLessThan(0.01);
      }
    }
  });

  it('with no responses returns the prior: θ = 0, SE = 1', async () => {
    const m = responseModel(trueBank());
    expect(await estimateLlm(m, [])).toMatchObject({ theta: 0, se: 1 });
  });
});
