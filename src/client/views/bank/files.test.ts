import { describe, expect, it } from 'vitest';
import { bankFromFit } from '../../../core/bank/bank';
import { tinyBinaryFit, tinyDataset, tinyFit } from '../../../core/testing/tiny';
import { catSettings } from './catForm';
import {
  bankJson,
  bankOfFit,
  bankSummary,
  dataFiles,
  parameterTableCsv,
  parseProbs,
  readBankText,
} from './files';
import { selectSettings } from './SelectSection';

describe('bank files', () => {
  const fit = tinyFit();
  const ds = tinyDataset();

  it('a bank of the shown fit records its data files, settings and item texts', () => {
    const bank = bankOfFit(fit, ds, '2025-01-02T03:04:05.000Z');
    expect(bank.schema).toBe('llm-nrm-bank/1');
    expect(bank.provenance).toEqual({
      dataFiles: ['tiny.csv'],
      date: '2025-01-02T03:04:05.000Z',
      settings: fit.settings,
    });
    expect(bank.items[0].question).toBe('Q1?');
    expect(bank.items[1].question).toBeUndefined();
    expect(bankSummary(bank)).toBe('3 items (2 benchmarks), model llmnrm, calibrated on 3 LLMs');
  });

  it('lists each data file once', () => {
    const twice = { ...ds, sources: [...ds.sources, ...ds.sources] };
    expect(dataFiles(twice)).toEqual(['tiny.csv']);
  });

  it('round-trips a saved bank', () => {
    const bank = bankOfFit(fit, ds);
    expect(readBankText(bankJson(bank), 'bank.json')).toEqual(bank);
  });

  it('accepts a fit.json as a bank', () => {
    const bank = readBankText(JSON.stringify(fit), 'fit.json');
    expect(bank.items.map((it) => it.id)).toEqual(['q1', 'q2', 'q3']);
    expect(bank.calibration.llms).toHaveLength(3);
  });

  it('says what is wrong with a bad file', () => {
    expect(() => readBankText('{"schema": ', 'b.json')).toThrow(/^b\.json: not valid JSON/);
    expect(() => readBankText('{"schema":"other"}', 'b.json')).toThrow(
      'schema is "other", expected "llm-nrm-bank/1"',
    );
    const broken = JSON.parse(bankJson(bankFromFit(fit, { dataFiles: [] })));
    broken.items[1].key = 'Z';
    broken.items[2].a = [1];
    expect(() => readBankText(JSON.stringify(broken), 'b.json')).toThrow(
      /items\[1\] \("q2"\): key "Z"[\s\S]*items\[2\] \("q3"\): a must be 2 finite numbers/,
    );
  });

  it('flattens nominal and binary banks into the parameter table', () => {
    const nominal = parameterTableCsv(bankOfFit(fit, ds)).trim().split('\r\n');
    // The se column (Laplace SEs, issue 10) is empty where the fit carried none, as this tiny one.
    expect(nominal[0]).toBe('item,benchmark,class,key,parameter,option,value,se');
    // (2K + 1) rows per item plus w0 and kappa: 7 + 7 + 5 + 2.
    expect(nominal).toHaveLength(1 + 21);
    expect(nominal[1]).toBe('q1,alpha,nominal,A,a,A,1.5,');
    const binary = parameterTableCsv(bankOfFit(tinyBinaryFit(), ds)).trim().split('\r\n');
    expect(binary).toHaveLength(1 + 3 * 5);
  });
});

describe('parseProbs', () => {
  it('reads K numbers separated by commas, semicolons, tabs or spaces', () => {
    expect(parseProbs('0.1, 0.7;0.1\t0.1', 4)).toEqual([0.1, 0.7, 0.1, 0.1]);
    expect(parseProbs(' 1 0 0 ', 3)).toEqual([1, 0, 0]);
  });

  it('refuses a wrong count, negatives, text and all zeros', () => {
    expect(() => parseProbs('0.5, 0.5', 4)).toThrow('Give 4 numbers, one per option (got 2).');
    expect(() => parseProbs('0.5, -0.5', 2)).toThrow('"-0.5" is not a probability');
    expect(() => parseProbs('a, 1', 2)).toThrow('"a" is not a probability');
    expect(() => parseProbs('0 0', 2)).toThrow('must not all be 0');
  });
});

describe('form settings', () => {
  it('CAT: max items ≥ 1, SE target optional and positive', () => {
    expect(catSettings('41', '')).toEqual({ maxItems: 41 });
    expect(catSettings('10', '0.3')).toEqual({ maxItems: 10, se: 0.3 });
    expect(() => catSettings('0', '')).toThrow('Max items');
    expect(() => catSettings('2.5', '')).toThrow('Max items');
    expect(() => catSettings('5', '-1')).toThrow('SE target');
  });

  it('fixed selection: k ≥ 1 and lo < hi', () => {
    expect(selectSettings('41', '-2', '2')).toEqual([41, [-2, 2]]);
    expect(() => selectSettings('0', '-2', '2')).toThrow('k must');
    expect(() => selectSettings('5', '2', '-2')).toThrow('θ range');
  });
});
