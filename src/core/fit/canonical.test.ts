import { describe, expect, it } from 'vitest';
import { subsetDataset } from '../data/subset';
import { simulateNominal } from '../model/simulate';
import { canonicalPosing } from './canonical';
import { pose } from './pose';
import { DEFAULT_SETTINGS } from './types';

/**
 * The final fit runs on the data's canonical copy (canonical.ts) and maps its
 * free vector back: the maps must be exact inverses, and a slot of LLM j or
 * item i must land on the same LLM or item, whatever order the data came in.
 */
describe('canonicalPosing', () => {
  // K fixed: no padding slots (they carry no parameter and are not mapped).
  const ds = simulateNominal({ J: 7, I: 11, K: 4, seed: 3, concentration: 30 }).data;
  const settings = { ...DEFAULT_SETTINGS };
  const posed = pose(ds, settings);

  it('maps a free vector there and back unchanged', () => {
    const c = canonicalPosing(ds, posed, (d) => pose(d, settings));
    const x = Float64Array.from(posed.x0, (_, q) => Math.sin(q + 1));
    const back = c.fromCanonical(c.toCanonical(x));
    expect(Array.from(back)).toEqual(Array.from(x));
  });

  it('gives two orders of the same cells the same canonical vector', () => {
    // LLMs and items reversed: each θ slot and item block must follow its owner.
    const js = Array.from({ length: ds.J }, (_, j) => ds.J - 1 - j);
    const is = Array.from({ length: ds.I }, (_, i) => ds.I - 1 - i);
    const rev = subsetDataset(ds, js, is);
    const prev = pose(rev, settings);
    const a = canonicalPosing(ds, posed, (d) => pose(d, settings));
    const b = canonicalPosing(rev, prev, (d) => pose(d, settings));
    // θ of LLM j is 10 + j in ds's order, so in rev's order LLM r holds 10 + js[r].
    const x = Float64Array.from(posed.x0);
    const y = Float64Array.from(prev.x0);
    for (let j = 0; j < ds.J; j++) x[j] = 10 + j;
    for (let r = 0; r < ds.J; r++) y[r] = 10 + js[r];
    expect(Array.from(a.toCanonical(x).subarray(0, ds.J))).toEqual(
      Array.from(b.toCanonical(y).subarray(0, ds.J)),
    );
    // The canonical copies' documented starts (where a fit starts) agree to the bit.
    expect(Array.from(a.posed.x0)).toEqual(Array.from(b.posed.x0));
  });
});
