import { beforeAll, describe, expect, it } from 'vitest';
import { subsetDataset } from '../data/subset';
import { fitDataset } from '../fit/fit';
import { thetaGrid } from '../model/itemfns';
import { simulateNominal } from '../model/simulate';
import { bankFromFit, type ItemBank } from './bank';
import { createCatSession, runCat } from './cat';
import { estimateLlm, responseTarget } from './estimate';
import {
  neutralTerms,
  responseModel,
  responseProbs,
  type LlmTerms,
  type ResponseModel,
} from './model';
import { selectItems } from './select';

/** Fisher information by brute force: Σ_k p_k (central difference of log p_k)². */
function bruteInfo(m: ResponseModel, i: number, theta: number, t: LlmTerms): number {
  const h = 1e-5;
  const it = m.items[i];
  const p = responseProbs(m, it, theta, t);
  const pp = responseProbs(m, it, theta + h, t);
  const pm = responseProbs(m, it, theta - h, t);
  return p.reduce((s, pk, k) => s + pk * ((Math.log(pp[k]) - Math.log(pm[k])) / (2 * h)) ** 2, 0);
}

describe('adaptive testing against a bank', () => {
  const { data } = simulateNominal({ J: 32, I: 120, seed: 17, concentration: 100 });
  const held = subsetDataset(data, [26, 27, 28, 29, 30, 31]);
  let bank: ItemBank;
  let m: ResponseModel;
  beforeAll(async () => {
    const fit = await fitDataset(
      subsetDataset(
        data,
        Array.from({ length: 26 }, (_, j) => j),
      ),
      {
        model: 'llmnrm',
        steps: 800,
      },
    );
    bank = bankFromFit(fit, { dataFiles: [] });
    m = responseModel(bank);
  });

  it('gives first the item with the most information at θ = 0 (brute force over the bank)', () => {
    const t0 = neutralTerms(m.Kmax);
    const infos = m.items.map((_, i) => bruteInfo(m, i, 0, t0));
    const best = infos.indexOf(Math.max(...infos));
    expect(createCatSession(bank).next()).toBe(m.items[best].id);
  });

  it('after answers, picks the most informative remaining item at the current θ and terms', async () => {
    const s = createCatSession(m);
    for (let q = 0; q < 6; q++) {
      const id = s.next()!;
      const off = held.itemIds.indexOf(id) * held.Kmax; // LLM 0 of the held-out set
      await s.answer(id, held.obs.subarray(off, off + held.Kmax));
    }
    const given = new Set(s.trace.map((x) => x.item));
    const infos = m.items.map((it, i) =>
      given.has(it.id) ? -1 : bruteInfo(m, i, s.theta, s.terms),
    );
    expect(s.next()).toBe(m.items[infos.indexOf(Math.max(...infos))].id);
  });

  it('SE falls as items are added, and the run ends at the item cap', async () => {
    for (let j = 0; j < held.J; j++) {
      const r = await runCat(m, held, j, { maxItems: 30 });
      expect(r.items).toHaveLength(30);
      expect(new Set(r.items).size).toBe(30);
      expect(r.stopped).toBe('max-items');
      const se = r.trace.map((s) => s.se);
      expect(se[0]).toBeLessThan(1);
      expect(se[9]).toBeLessThan(se[0]);
      expect(se[29]).toBeLessThan(se[9]);
      // Re-estimating s, δ, ρ can nudge SE up for a step; it falls on the whole.
      const ups = se.slice(1).filter((v, q) => v > se[q] + 1e-9).length;
      expect(ups).toBeLessThanOrEqual(6);
    }
  });

  it('stops as soon as SE drops below the target', async () => {
    const r = await runCat(m, held, 2, { se: 0.3 });
    expect(r.stopped).toBe('se');
    const se = r.trace.map((s) => s.se);
    expect(se.at(-1)).toBeLessThan(0.3);
    expect(se.slice(0, -1).every((v) => v >= 0.3)).toBe(true);
    expect(r.items.length).toBeLessThan(held.I);
  });

  it('given every item, ends where the MAP on all items is', async () => {
    const j = 4;
    const r = await runCat(m, held, j, {});
    expect(r.stopped).toBe('pool-exhausted');
    expect(r.items).toHaveLength(held.I);
    const rs = held.itemIds.map((id, i) => {
      const b = m.index.get(id)!;
      const off = (j * held.I + i) * held.Kmax;
      return { item: b, y: responseTarget(m, m.items[b], held.obs.subarray(off, off + held.Kmax)) };
    });
    const all = await estimateLlm(m, rs);
    expect(Math.abs(r.theta - all.theta)).toBeLessThan(1e-3);
  });

  it('holds known LLM terms fixed and refuses items outside the pool', async () => {
    const terms = { s: 1.3, delta: new Array(m.Kmax).fill(0), rho: new Array(m.Kmax).fill(0.1) };
    const s = createCatSession(bank, {
      llmTerms: terms,
      pool: m.items.slice(0, 10).map((it) => it.id),
    });
    const id = s.next()!;
    await s.answer(id, responseProbs(m, m.items[m.index.get(id)!], 0.5, terms));
    expect(s.terms.s).toBe(1.3);
    await expect(s.answer(id, [0.5, 0.5])).rejects.toThrow(/not in this session's pool/);
    await expect(s.answer(m.items[50].id, [0.5, 0.5])).rejects.toThrow(
      /not in this session's pool/,
    );
  });

  it('non-adaptive selection is deterministic and keeps the items with the most mean information', () => {
    const a = selectItems(bank, 15);
    expect(selectItems(bank, 15)).toEqual(a);
    expect(a).toHaveLength(15);
    for (let q = 1; q < a.length; q++) expect(a[q].info).toBeLessThanOrEqual(a[q - 1].info);
    // Brute force: mean of the brute-force information over the same grid.
    const grid = thetaGrid(-2, 2, 41);
    const t0 = neutralTerms(m.Kmax);
    const mean = m.items.map(
      (_, i) => grid.reduce((s, t) => s + bruteInfo(m, i, t, t0), 0) / grid.length,
    );
    const order = mean.map((v, i) => [v, i]).sort((x, y) => y[0] - x[0]);
    expect(a[0].item).toBe(m.items[order[0][1]].id);
    const top = new Set(order.slice(0, 15).map(([, i]) => m.items[i].id));
    expect(a.filter((s) => top.has(s.item)).length).toBeGreaterThanOrEqual(14);
    expect(selectItems(bank, 5, { thetaRange: [1, 3] }).map((s) => s.item)).not.toEqual(
      selectItems(bank, 5, { thetaRange: [-3, -1] }).map((s) => s.item),
    );
  });
});
