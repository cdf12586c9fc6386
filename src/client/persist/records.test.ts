import { describe, expect, it } from 'vitest';
import { datasetSummary } from '../../core/data/summary';
import { DEFAULT_SETTINGS } from '../../core/fit/types';
import { tinyDataset, tinyFit } from '../../core/testing/tiny';
import {
  checkCheckpoint,
  checkData,
  RECORD_VERSION,
  toSession,
} from '../../boundary/persist/records';

function savedData(savedAt = 1000) {
  const dataset = tinyDataset();
  return {
    version: RECORD_VERSION,
    savedAt,
    dataset,
    summary: datasetSummary(dataset),
    files: ['tiny.csv'],
    seconds: 0.1,
  };
}

const savedFit = (savedAt = 2000) => ({
  version: RECORD_VERSION,
  savedAt,
  label: '#1 llmnrm',
  origin: 'fit',
  fit: tinyFit(),
});

const checkpoint = (savedAt = 3000) => ({
  version: RECORD_VERSION,
  savedAt,
  x: new Float64Array([1, 2, 3]),
  step: 200,
  objective: 12.5,
  settings: DEFAULT_SETTINGS,
});

describe('saved records', () => {
  it('a whole session comes back, its time the latest write', () => {
    const s = toSession(savedData(), [{ key: 1, value: savedFit() }], checkpoint());
    expect(s?.fits.map((f) => f.key)).toEqual([1]);
    expect(s?.checkpoint?.step).toBe(200);
    expect(s?.savedAt).toBe(3000);
  });

  it('no data means nothing to restore, whatever else is there', () => {
    expect(toSession(undefined, [{ key: 1, value: savedFit() }], checkpoint())).toBeNull();
  });

  it('drops stale versions, wrong typed arrays and fits of other data', () => {
    expect(checkData({ ...savedData(), version: 0 })).toBeNull();
    const d = savedData();
    expect(
      checkData({ ...d, dataset: { ...d.dataset, obs: Array.from(d.dataset.obs) } }),
    ).toBeNull();
    expect(checkData({ ...d, dataset: { ...d.dataset, observed: new Uint8Array(2) } })).toBeNull();
    const other = savedFit();
    other.fit = { ...other.fit, items: other.fit.items.slice(1) };
    const s = toSession(
      d,
      [
        { key: 1, value: other },
        { key: 2, value: savedFit() },
      ],
      null,
    );
    expect(s?.fits.map((f) => f.key)).toEqual([2]);
    expect(checkCheckpoint({ ...checkpoint(), x: [1, 2, 3] })).toBeNull();
  });

  it("keeps a fit's 'start' record (no iterate yet), but not an empty iterate otherwise", () => {
    const start = { ...checkpoint(), x: new Float64Array(0), step: 0, phase: 'start' };
    expect(checkCheckpoint(start)?.phase).toBe('start');
    expect(checkCheckpoint({ ...start, phase: 'fit' })).toBeNull();
    expect(checkCheckpoint({ ...start, phase: undefined })).toBeNull();
    expect(checkCheckpoint({ ...checkpoint(), phase: 'later' })).toBeNull();
    expect(checkCheckpoint({ ...checkpoint(), replaces: '#1 llmnrm' })?.replaces).toBe('#1 llmnrm');
    expect(checkCheckpoint({ ...checkpoint(), replaces: 1 })).toBeNull();
  });
});
