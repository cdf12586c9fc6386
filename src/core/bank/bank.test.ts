import { beforeAll, describe, expect, it } from 'vitest';
import { loadDataset } from '../data/load';
import { subsetDataset } from '../data/subset';
import { writeWideCsv } from '../data/write';
import { fitDataset } from '../fit/fit';
import { scoreLlms } from '../fit/score';
import type { FitJson } from '../fit/types';
import { simulateNominal } from '../model/simulate';
import { bankAsFit, bankFromFit, type ItemBank } from './bank';
import { selectItems, tinyBenchmarkCsv } from './select';
import { bankToParameterTable } from './table';
import { BankError, validateBank } from './validate';

describe('item banks', () => {
  const { data } = simulateNominal({ J: 24, I: 60, seed: 3, concentration: 100 });
  const train = subsetDataset(
    data,
    Array.from({ length: 20 }, (_, j) => j),
  );
  const held = subsetDataset(data, [20, 21, 22, 23]);
  let fit: FitJson;
  let bank: ItemBank;
  beforeAll(async () => {
    fit = await fitDataset(train, { model: 'llmnrm', steps: 800 });
    bank = bankFromFit(fit, { dataFiles: ['sim.csv'], date: '2026-01-01T00:00:00.000Z' });
  });

  it('saves to JSON and loads back to identical scores', async () => {
    const loaded = validateBank(JSON.parse(JSON.stringify(bank)), 'bank.json');
    expect(loaded).toEqual(bank);
    expect(loaded.schema).toBe('llm-nrm-bank/1');
    expect(loaded.provenance).toMatchObject({
      dataFiles: ['sim.csv'],
      date: '2026-01-01T00:00:00.000Z',
    });
    expect(loaded.provenance.settings.model).toBe('llmnrm');
    const direct = await scoreLlms(held, fit);
    const viaBank = await scoreLlms(held, bankAsFit(loaded));
    expect(viaBank.llms.map((l) => l.theta)).toEqual(direct.llms.map((l) => l.theta));
    expect(viaBank.llms.map((l) => l.thetaSE)).toEqual(direct.llms.map((l) => l.thetaSE));
  });

  it('flattens to one row per a and c of each option, b per item, and the gate', () => {
    const rows = bankToParameterTable(bank);
    const perItem = bank.items.reduce((n, it) => n + 2 * it.nOptions + 1, 0);
    expect(rows).toHaveLength(perItem + 2);
    const first = bank.items[0];
    const a = rows.filter((r) => r.item === first.id && r.parameter === 'a').map((r) => r.value);
    expect(a).toEqual(first.a);
    // Every row carries the calibration fit's Laplace SE.
    const aSE = rows.filter((r) => r.item === first.id && r.parameter === 'a').map((r) => r.se);
    expect(aSE).toEqual(first.aSE);
    for (const r of rows) expect(r.se).toBeGreaterThan(0);
    expect(rows.at(-1)).toMatchObject({
      item: '(global)',
      parameter: 'kappa',
      value: bank.global.kappa,
    });
  });

  it('binary banks give slope, d, g, u and b per item and no gate rows', async () => {
    const f2 = await fitDataset(train, { model: '2pl', steps: 300 });
    const b2 = bankFromFit(f2, { dataFiles: [] });
    const rows = bankToParameterTable(b2);
    expect(rows).toHaveLength(5 * b2.items.length);
    expect(new Set(rows.map((r) => r.class))).toEqual(new Set(['2PL']));
    expect(() => validateBank(JSON.parse(JSON.stringify(b2)))).not.toThrow();
  });

  it('refuses broken banks with every problem named', () => {
    const broken = JSON.parse(JSON.stringify(bank));
    broken.items[2].a = broken.items[2].a.slice(1);
    broken.items[5].key = 'J';
    broken.items[7].id = broken.items[6].id;
    broken.global.kappa = 'x';
    let err: BankError | undefined;
    try {
      validateBank(broken, 'bank.json');
    } catch (e) {
      err = e as BankError;
    }
    expect(err).toBeInstanceOf(BankError);
    expect(err!.problems).toHaveLength(4);
    expect(err!.message).toMatch(/bank\.json: not a usable item bank/);
    expect(err!.message).toContain(`items[2] ("${bank.items[2].id}"): a must be`);
    expect(err!.message).toMatch(/items\[5\].*key "J"/);
    expect(err!.message).toMatch(/items\[7\].*duplicate id/);
    expect(() => validateBank({ ...fit })).toThrow(/this is a fit\.json/);
    expect(() => validateBank('nope')).toThrow(/not a JSON object/);
  });

  it('exports chosen items as an items CSV the loader reads back, texts included', async () => {
    const texts = new Map(
      bank.items.map((it) => [
        it.id,
        {
          question: `Q ${it.id}?`,
          options: Array.from({ length: it.nOptions }, (_, k) => `opt ${k}`),
        },
      ]),
    );
    const withText = bankFromFit(fit, { dataFiles: [] }, texts);
    const chosen = selectItems(withText, 5).map((s) => s.item);
    const csv = tinyBenchmarkCsv(withText, chosen);
    expect(csv.split('\n')[0]).toMatch(/^item,benchmark,key,n_options,question,option_A/);
    const cols = chosen.map((id) => data.itemIds.indexOf(id));
    const wide = writeWideCsv(subsetDataset(held, undefined, cols));
    const ds = await loadDataset([
      { name: 'tiny.csv', text: csv },
      { name: 'held.csv', text: wide },
    ]);
    expect([...ds.itemIds].sort()).toEqual([...chosen].sort());
    const i0 = ds.itemIds.indexOf(chosen[0]);
    expect(ds.itemTexts![i0]).toEqual(texts.get(chosen[0]));
    expect(ds.key[i0]).toBe(data.key[cols[0]]);
  });
});
