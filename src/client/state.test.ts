import { describe, expect, it } from 'vitest';
import { datasetSummary } from '../core/data/summary';
import { tinyDataset, tinyFit } from '../core/testing/tiny';
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

describe('fitDone', () => {
  it('a continuation replaces the fit it continued, in its place, and is shown', () => {
    let s = initialState;
    for (const steps of [10, 20, 30])
      s = reducer(s, { type: 'fitDone', fit: { ...tinyFit(), steps }, origin: 'fit' });
    expect(s.fits.map((f) => f.id)).toEqual([1, 2, 3]);
    s = reducer(s, { type: 'fitStart', settings: tinyFit().settings, untilConverged: true });
    expect(s.running?.untilConverged).toBe(true);
    s = reducer(s, {
      type: 'fitDone',
      fit: { ...tinyFit(), steps: 99 },
      origin: 'fit',
      replaces: 2,
    });
    expect(s.fits.map((f) => [f.id, f.fit.steps])).toEqual([
      [1, 10],
      [4, 99],
      [3, 30],
    ]);
    expect(s.shownFit).toBe(4);
    expect(s.running).toBeNull();
    // A fit no longer listed is not replaced: the new one is added.
    s = reducer(s, { type: 'fitDone', fit: tinyFit(), origin: 'fit', replaces: 2 });
    expect(s.fits.map((f) => f.id)).toEqual([1, 4, 3, 5]);
  });
});
