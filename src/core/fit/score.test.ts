import { describe, expect, it } from 'vitest';
import { subsetDataset } from '../data/subset';
import { simulateNominal } from '../model/simulate';
import { spearman } from '../stats/corr';
import { fitDataset } from './fit';
import { scoreLlms } from './score';

describe('scoring new LLMs against a fixed bank', () => {
  const { data, truth, layout } = simulateNominal({ J: 50, I: 200, seed: 21, concentration: 100 });
  const train = Array.from({ length: 40 }, (_, j) => j);
  const test = Array.from({ length: 10 }, (_, j) => 40 + j);

  it('recovers the held-out LLMs’ θ order from the bank on every channel', async () => {
    const bank = await fitDataset(subsetDataset(data, train), { model: 'llmnrm' });
    const held = subsetDataset(data, test);
    const thetaTrue = test.map((j) => truth[layout.theta + j]);
    const full = await scoreLlms(held, bank);
    expect(full.used).toBe(200);
    expect(full.notInBank).toEqual([]);
    const rFull = spearman(
      full.llms.map((l) => l.theta),
      thetaTrue,
    );
    const rBin = spearman(
      (await scoreLlms(held, bank, { channel: 'binary' })).llms.map((l) => l.theta),
      thetaTrue,
    );
    const rWrong = spearman(
      (await scoreLlms(held, bank, { channel: 'wrong' })).llms.map((l) => l.theta),
      thetaTrue,
    );
    console.log('held-out spearman', { rFull, rBin, rWrong });
    expect(rFull).toBeGreaterThan(0.9);
    expect(rBin).toBeGreaterThan(0.6);
    expect(rWrong).toBeGreaterThan(0.6);
    expect(full.llms.every((l) => l.thetaSE > 0 && l.thetaSE < 1)).toBe(true);
  });

  it('reports and ignores items that are not in the bank', async () => {
    const bank = await fitDataset(
      subsetDataset(
        data,
        train,
        Array.from({ length: 150 }, (_, i) => i),
      ),
      { model: '2pl' },
    );
    const r = await scoreLlms(subsetDataset(data, test), bank);
    expect(r.notInBank.length).toBe(50);
    expect(r.used).toBe(150);
  });
});
