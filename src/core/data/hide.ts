import type { Dataset } from './types';

/**
 * A copy of `ds` in which the cells where `hide(cell)` is true are missing
 * (observed 0, probabilities zeroed): a training set that cannot see them.
 */
export function hideCells(ds: Dataset, hide: (cell: number) => boolean): Dataset {
  const observed = Uint8Array.from(ds.observed);
  const obs = Float32Array.from(ds.obs);
  const leakage = Float32Array.from(ds.leakage);
  for (let c = 0; c < observed.length; c++) {
    if (!observed[c] || !hide(c)) continue;
    observed[c] = 0;
    obs.fill(0, c * ds.Kmax, (c + 1) * ds.Kmax);
    leakage[c] = NaN;
  }
  return { ...ds, observed, obs, leakage };
}
