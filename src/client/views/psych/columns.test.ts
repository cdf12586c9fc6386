import { describe, expect, it } from 'vitest';
import { tinyDataset } from '../../../core/eval/testing';
import { classicalAnalysis } from '../../../core/psych/classical';
import { isDataMismatch } from '../../../boundary/psychProtocol';
import { checkFitOf, ddColumns, difTable } from '../../../worker/psych';
import type { FitJson } from '../../../core/fit/types';
import { columnsOf, ddRows } from './columns';

// 2 LLMs × 2 items (K = 3, key A); L1 picks A on both, L2 picks B then C.
const one = (k: number) => [0, 1, 2].map((q) => (q === k ? 0.9 : 0.05));
const ds = tinyDataset(
  [
    { id: 'i1', K: 3, key: 0 },
    { id: 'i2', K: 3, key: 0 },
  ],
  [
    ['L1', 'i1', one(0)],
    ['L1', 'i2', one(0)],
    ['L2', 'i1', one(1)],
    ['L2', 'i2', one(2)],
  ],
);

describe('the Psychometrics tables across the worker boundary', () => {
  it('DDplot rows survive the columns the worker transfers', () => {
    const { dd } = classicalAnalysis(ds, 2);
    const back = ddRows(ddColumns(dd, ds), ds.itemIds);
    expect(back).toEqual(dd);
    // By hand: item i2, high group (L1), option A: share 1 of n 1; option C in the low group: 1.
    expect(back.find((r) => r.item === 'i2' && r.group === 2 && r.option === 'A')).toEqual({
      item: 'i2',
      group: 2,
      option: 'A',
      isKey: true,
      share: 1,
      n: 1,
    });
    expect(back.find((r) => r.item === 'i2' && r.group === 1 && r.option === 'C')?.share).toBe(1);
  });

  it('a fit or DIF groups of other data reject with the one typed error the page answers', () => {
    const other = {
      items: [{ id: 'i1' }, { id: 'x' }],
      llms: [{ id: 'L1' }, { id: 'L2' }],
    } as Pick<FitJson, 'items' | 'llms'> as FitJson;
    expect(() => checkFitOf(other, ds)).toThrow(
      expect.objectContaining({ name: 'DataMismatchError' }),
    );
    let thrown: unknown;
    try {
      difTable(
        {
          data: { itemIds: ['i1', 'i2'], llmIds: ['L2', 'L1'] },
          group: ['a', 'b'],
          names: ['a', 'b'],
        },
        ds,
      );
    } catch (e) {
      thrown = e;
    }
    expect(isDataMismatch(thrown)).toBe(true);
    // The same groups for this data set's own order run.
    const rows = difTable(
      {
        data: { itemIds: ['i1', 'i2'], llmIds: ['L1', 'L2'] },
        group: ['a', 'b'],
        names: ['a', 'b'],
      },
      ds,
    );
    expect(rows.map((r) => r.item)).toEqual(['i1', 'i2']);
  });
});

describe('columnsOf', () => {
  it('shows whole-number columns (counts) as integers and the rest with decimals', () => {
    const rows = [
      { item: 'a', n: 18, nRef: 5, share: 0.5 },
      { item: 'b', n: 1204, nRef: NaN, share: 1 },
    ];
    const cols = columnsOf(rows, ['item', 'n', 'nRef', 'share']);
    const byKey = Object.fromEntries(cols.map((c) => [c.key, c]));
    expect(byKey.n.render?.(rows[0])).toBe('18');
    expect(byKey.n.render?.(rows[1])).toBe('1,204');
    expect(byKey.nRef.render?.(rows[0])).toBe('5');
    expect(byKey.nRef.render?.(rows[1])).toBe('—');
    // Not all whole: the table's default (3 decimals), so no render of its own.
    expect(byKey.share.render).toBeUndefined();
    expect(byKey.item.render).toBeUndefined();
  });
});
