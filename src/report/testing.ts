/** The demo data set and a short fit of it, shared by the report's tests (not product code). */
import path from 'node:path';
import { loadDatasetFromPaths } from '../node/files';
import type { Dataset } from '../core/data/types';
import { fitDataset, FUSED_HANDLE } from '../core/fit/fit';
import { DEFAULT_SETTINGS, type FitJson } from '../core/fit/types';

export const DEMO_PATHS = ['econ-reading.items.csv', 'econ-reading.wide.csv'].map((f) =>
  path.resolve('public/demo', f),
);

/**
 * The 18 × 345 demo and a 150-step fit of it at λ = 1 (no λ search): a real,
 * if unconverged, fit in a few seconds. The report must say it did not converge.
 */
export async function demoFit(ds?: Dataset): Promise<{ ds: Dataset; fit: FitJson }> {
  const data = ds ?? (await loadDatasetFromPaths(DEMO_PATHS, {}));
  const fit = await fitDataset(
    data,
    { ...DEFAULT_SETTINGS, steps: 150, priorStrength: 1 },
    { engine: FUSED_HANDLE },
  );
  return { ds: data, fit };
}
