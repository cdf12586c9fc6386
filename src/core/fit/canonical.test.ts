import { describe, expect, it } from 'vitest';
import { subsetDataset } from '../data/subset';
import { simulateNominal } from '../model/simulate';
import { completeDataset } from '../data/complete';
import { canonicalOrder, canonicalPosing } from './canonical';
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

describe('canonicalOrder', () => {
  it('orders two-option items that prefer A equally often by their values, not their order', () => {
    // 2 LLMs × 3 items, 2 options, key A. Every cell prefers A, so every item
    // (and every LLM) has the same content hash; only the values tell them apart.
    const pA = [
      [0.9, 0.6, 0.75],
      [0.8, 0.7, 0.55],
    ];
    const obs = new Float32Array(2 * 3 * 2);
    pA.forEach((row, j) =>
      row.forEach((p, i) => {
        obs[(j * 3 + i) * 2] = p;
        obs[(j * 3 + i) * 2 + 1] = 1 - p;
      }),
    );
    const ds = completeDataset(obs, new Uint8Array(3), { J: 2, I: 3, K: 2 });
    const rev = subsetDataset(ds, [1, 0], [2, 0, 1]);
    const a = canonicalOrder(ds, null);
    const b = canonicalOrder(rev, null);
    // Item keys Σ_j (1·p_A + 2·p_B) = Σ_j (2 − p_A): item 0 2.3, items 1 and 2
    // about 2.7, so item 0 comes first. LLM keys: LLM 0 3.75, LLM 1 3.95.
    expect(a.items.slice(0, 1)).toEqual([0]);
    expect(b.items.slice(0, 1)).toEqual([1]); // rev's item 1 is ds's item 0
    expect(a.llms).toEqual([0, 1]);
    expect(b.llms).toEqual([1, 0]); // rev's LLM 1 is ds's LLM 0
    expect(Array.from(a.data.obs.subarray(0, 2))).toEqual(Array.from(b.data.obs.subarray(0, 2)));
  });
});
