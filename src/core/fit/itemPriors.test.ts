import { describe, expect, it } from 'vitest';
import { simulateNominal } from '../model/simulate';
import { everyCellOneHot, fitDataset } from './fit';
import type { Dataset } from '../data/types';

/** The same cells as one-hot: all mass on each cell's most likely option. */
function oneHot(ds: Dataset): Dataset {
  const obs = new Float32Array(ds.obs.length);
  for (let c = 0; c < ds.J * ds.I; c++) {
    let top = 0;
    for (let k = 1; k < ds.Kmax; k++)
      if (ds.obs[c * ds.Kmax + k] > ds.obs[c * ds.Kmax + top]) top = k;
    if (ds.observed[c]) obs[c * ds.Kmax + top] = 1;
  }
  return { ...ds, obs };
}

describe('the priors on a, c and log s: fixed on soft data, one λ on one-hot data', () => {
  const soft = simulateNominal({ J: 6, I: 30, seed: 4, missing: 0.1, concentration: 50 }).data;
  const hard = oneHot(soft);

  it('tells one-hot data from soft', () => {
    expect(everyCellOneHot(soft)).toBe(false);
    expect(everyCellOneHot(hard)).toBe(true);
    // One soft cell is enough to make the data soft.
    const mixed = { ...hard, obs: Float32Array.from(hard.obs) };
    const c = mixed.observed.indexOf(1);
    mixed.obs[c * mixed.Kmax] = 0.5;
    mixed.obs[c * mixed.Kmax + 1] = 0.5;
    expect(everyCellOneHot(mixed)).toBe(false);
  });

  it('records the choice in the settings, and the priors say which groups were fixed', async () => {
    const [fs, fh] = await Promise.all([fitDataset(soft, {}), fitDataset(hard, {})]);
    expect(fs.settings.itemPriors).toBe('fixed');
    expect(fh.settings.itemPriors).toBe('strength');
    const sd = (f: typeof fs, g: string) => f.priors!.find((p) => p.group === g)!;
    expect(sd(fs, 'a')).toMatchObject({ sd: 2, learned: false });
    expect(sd(fs, 'logS')).toMatchObject({ sd: 0.3, learned: false });
    expect(sd(fs, 'rho').learned).toBe(true);
    // 180 cells are too few to search: λ = 1, so one-hot data's a sits at 1 · r_a.
    expect(sd(fh, 'a')).toMatchObject({ sd: 1, learned: true });
    // The user's choice stands.
    const asked = await fitDataset(soft, { itemPriors: 'strength' });
    expect(sd(asked, 'a')).toMatchObject({ sd: 1, learned: true });
  });
});
