import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bankAsFit } from '../core/bank/bank';
import { loadDataset } from '../core/data/load';
import { subsetDataset } from '../core/data/subset';
import type { Dataset } from '../core/data/types';
import { FUSED_HANDLE } from '../core/fit/fit';
import { scoreLlms } from '../core/fit/score';
import { DEFAULT_SETTINGS } from '../core/fit/types';
import { createBankApi } from './bank';

// The real NAEP demo: 18 LLMs × 345 items. The first 14 calibrate, 4 are held out.
const demo = ['econ-reading.wide.csv', 'econ-reading.items.csv'].map((name) => ({
  name,
  text: readFileSync(`public/demo/${name}`, 'utf8'),
}));

function host(calibration: Dataset | null = null) {
  const live = new Set<number>();
  return {
    live,
    register: (id: number) => (live.add(id), new AbortController()),
    done: (id: number) => void live.delete(id),
    calibration: () => calibration,
    // The plain-TypeScript engine: these tests check the bank calls, not engine choice.
    engine: async () => FUSED_HANDLE,
  };
}

describe('worker bank calls', () => {
  it('hold-out: calibrates on 14 LLMs, scores the other 4 as scoreLlms does, tests adaptively', async () => {
    const h = host();
    const api = createBankApi(h);
    const stages: string[] = [];
    const r = await api.holdOut(demo, DEFAULT_SETTINGS, 14, (s) => stages.push(s), 1);
    expect(stages).toEqual([
      'Reading the data…',
      'Calibrating a bank on 14 LLMs…',
      'Scoring 4 held-out LLMs…',
    ]);
    expect(r.bank.calibration.llms).toHaveLength(14);
    expect(r.bank.provenance.dataFiles).toEqual(demo.map((d) => d.name));
    expect(r.bank.items[0].question).toBeTruthy();
    expect(r.newData.llmIds).toHaveLength(4);
    expect(r.newData.summary.I).toBe(345);
    expect(r.score.llms.map((l) => l.id)).toEqual(r.newData.llmIds);
    expect(r.score.notInBank).toEqual([]);

    // The same numbers as scoring the held-out subset directly (same code path, exact).
    const ds = await loadDataset(demo);
    const held = subsetDataset(ds, [14, 15, 16, 17]);
    const direct = await scoreLlms(held, bankAsFit(r.bank));
    r.score.llms.forEach((l, q) => expect(l.theta).toBe(direct.llms[q].theta));
    // Rescoring the slot against the same bank gives the same answer.
    const again = await api.score(r.bank, 2);
    expect(again.llms.map((l) => l.theta)).toEqual(r.score.llms.map((l) => l.theta));

    // The default test length; the pool is the LLM's 345 answered items.
    const cat = await api.cat(r.bank, 'new', 0, { maxItems: 41 }, 3);
    expect(cat.llm).toBe(r.newData.llmIds[0]);
    expect(cat.items).toHaveLength(41);
    expect(new Set(cat.items).size).toBe(41);
    expect(cat.trace.map((t) => t.item)).toEqual(cat.items);
    expect(cat.stopped).toBe('max-items');
    // 41 of 345 items put the LLM near its all-items score. Tolerance 0.5: half the
    // calibration LLMs' sd of θ (the CAT's own SE understates the gap: s, δ, ρ
    // are estimated from those 41 items too).
    expect(Math.abs(cat.theta - r.score.llms[0].theta)).toBeLessThan(0.5);
    expect(h.live.size).toBe(0);
  });

  it('loads new LLMs apart from the calibration data and tests calibration LLMs too', async () => {
    const ds = await loadDataset(demo);
    const calibration = subsetDataset(ds, [0, 1, 2]);
    const api = createBankApi(host(calibration));
    await expect(api.score({} as never, 1)).rejects.toThrow('No new LLMs are loaded');
    const seen: number[] = [];
    const info = await api.loadNew(demo, {}, (p) => seen.push(p.rows), 2);
    expect(info.llmIds).toHaveLength(18);
    expect(info.files).toEqual(demo.map((d) => d.name));
    expect(seen.at(-1)).toBeGreaterThan(0);

    const held = await createBankApi(host()).holdOut(demo, DEFAULT_SETTINGS, 14, () => {}, 3);
    const cat = await api.cat(held.bank, 'calibration', 2, { maxItems: 5, se: 10 }, 4);
    expect(cat.llm).toBe(calibration.llmIds[2]);
    // SE < 10 after the first item: the SE rule stops at once.
    expect(cat.items).toHaveLength(1);
    expect(cat.stopped).toBe('se');
    await expect(api.cat(held.bank, 'calibration', 7, { maxItems: 5 }, 5)).rejects.toThrow(
      'There is no LLM number 8',
    );
  });

  it('refuses a hold-out that leaves nothing to calibrate or score', async () => {
    const api = createBankApi(host());
    await expect(api.holdOut(demo, DEFAULT_SETTINGS, 18, () => {}, 1)).rejects.toThrow(
      'Cannot calibrate on 18 of 18 LLMs',
    );
  });
});
