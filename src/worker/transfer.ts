import type { Dataset } from '../core/data/types';

/**
 * A copy of the data set whose typed arrays own fresh buffers, so they can be
 * transferred (moved, not cloned) to the main thread while the worker keeps
 * the original for fitting.
 */
export function copyDataset(ds: Dataset): Dataset {
  return {
    ...ds,
    nOptions: ds.nOptions.slice(),
    key: ds.key.slice(),
    obs: ds.obs.slice(),
    observed: ds.observed.slice(),
    leakage: ds.leakage.slice(),
  };
}

/** The buffers of a data set's typed arrays, for `Comlink.transfer`. */
export function datasetBuffers(ds: Dataset): ArrayBuffer[] {
  return [ds.nOptions, ds.key, ds.obs, ds.observed, ds.leakage].map((a) => a.buffer as ArrayBuffer);
}
