import { describe, expect, it } from 'vitest';
import { datasetSummary } from '../core/data/summary';
import { tinyDataset } from '../core/testing/tiny';
import { initialState, reducer } from './state';

describe('reset', () => {
  it('returns to the empty state with a notice', () => {
    const dataset = tinyDataset();
    const loaded = reducer(initialState, {
      type: 'loadDone',
      data: { dataset, summary: datasetSummary(dataset), files: ['tiny.csv'], seconds: 0 },
    });
    const s = reducer(loaded, { type: 'reset', notice: 'cleared' });
    expect(s).toEqual({ ...initialState, notice: 'cleared' });
  });
});
