import { describe, expect, it } from 'vitest';
import { mantelHaenszel } from './dif';
import { groupsOf, parseGroups } from './groups';
import { simulateBinary } from './simulate';

const DIF = [2, 11, 23, 37, 44];

describe('Mantel–Haenszel DIF on simulated data', () => {
  it('flags the 5 items with a 1-logit group shift (300 + 300 LLMs, 3 seeds) and ≤ 5% of the others', () => {
    let flaggedDif = 0;
    let falseFlags = 0;
    let others = 0;
    const deltas: number[] = [];
    for (const seed of [1, 2, 3]) {
      const { data } = simulateBinary({
        J: 600,
        I: 50,
        seed,
        focal: (j) => j % 2 === 1,
        dif: DIF,
        shift: 1,
      });
      const group = data.llmIds.map((_, j) => (j % 2 ? 'focal' : 'ref'));
      const rows = mantelHaenszel(data, group, ['ref', 'focal']);
      expect(rows).toHaveLength(50);
      rows.forEach((r, i) => {
        if (DIF.includes(i)) {
          if (r.flag) flaggedDif++;
          deltas.push(r.deltaMH);
          expect(r.deltaLo).toBeLessThan(r.deltaMH);
        } else {
          others++;
          if (r.flag) falseFlags++;
        }
      });
    }
    const rate = falseFlags / others;
    console.log(
      'MH check',
      JSON.stringify({
        flaggedDif: `${flaggedDif}/15`,
        falseFlags: `${falseFlags}/${others}`,
        rate: +rate.toFixed(4),
        meanDeltaDif: +(deltas.reduce((s, d) => s + d, 0) / deltas.length).toFixed(3),
      }),
    );
    expect(flaggedDif).toBe(15);
    expect(deltas.every((d) => d < 0)).toBe(true);
    expect(rate).toBeLessThanOrEqual(0.05);
  });
});

describe('parseGroups', () => {
  it('reads model,group with quotes and rejects a single group', () => {
    const m = parseGroups('model,group\r\n"a,1",open\nb,closed\n');
    expect([...m]).toEqual([
      ['a,1', 'open'],
      ['b', 'closed'],
    ]);
    expect(groupsOf(['b', 'x', 'a,1'], m)).toEqual({
      group: ['closed', '', 'open'],
      names: ['open', 'closed'],
    });
    expect(() => parseGroups('model,group\na,open\n')).toThrow(/two groups/);
    expect(() => parseGroups('name,team\na,open\n')).toThrow(/model,group/);
  });
});

describe('likelihood-ratio DIF (item parameters freed per group)', () => {
  it('finds the shifted items on a 2PL fit (300 + 300 LLMs, 1-logit shift)', async () => {
    const { fitDataset } = await import('../fit/fit');
    const { lrDif } = await import('./difLr');
    const { data } = simulateBinary({
      J: 600,
      I: 30,
      seed: 4,
      focal: (j) => j % 2 === 1,
      dif: [2, 11, 23],
      shift: 1,
    });
    const fit = await fitDataset(data, { model: '2pl' });
    const group = data.llmIds.map((_, j) => (j % 2 ? 'focal' : 'ref'));
    const rows = await lrDif(fit, data, group, ['ref', 'focal']);
    const hit = rows.filter((r, i) => r.flag && [2, 11, 23].includes(i)).length;
    const fp = rows.filter((r, i) => r.flag && ![2, 11, 23].includes(i)).length;
    console.log('LR check', JSON.stringify({ hit: `${hit}/3`, falseFlags: `${fp}/27` }));
    expect(hit).toBe(3);
    expect(fp).toBeLessThanOrEqual(2);
    for (const i of [2, 11, 23]) expect(rows[i].effect).toBeLessThan(0);
    expect(rows.every((r) => r.df === 2)).toBe(true);
  }, 60_000);

  it('runs on a nominal fit (llmnrm) with df 2(K − 1)', async () => {
    const { simulateNominal } = await import('../model/simulate');
    const { fitJsonFromNat } = await import('../eval/testing');
    const { lrDif } = await import('./difLr');
    const sim = simulateNominal({ J: 40, I: 6, seed: 3, K: 4, concentration: 30 });
    const fit = fitJsonFromNat(sim.data, sim.truth, sim.layout, 'llmnrm');
    const group = sim.data.llmIds.map((_, j) => (j < 20 ? 'a' : 'b'));
    const rows = await lrDif(fit, sim.data, group, ['a', 'b']);
    expect(rows).toHaveLength(6);
    for (const r of rows) {
      expect(r.df).toBe(6);
      expect(r.lrChi2).toBeGreaterThanOrEqual(0);
      expect(r.p).toBeGreaterThan(0);
    }
  });
});
