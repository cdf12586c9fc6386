import { describe, expect, it } from 'vitest';
import { subsetDataset } from '../data/subset';
import { STRENGTH_GRID } from '../model/hprior';
import { simulateNominal } from '../model/simulate';
import { FUSED_HANDLE } from './fit';
import { choosePriorStrength, searchItems } from './strength';
import { DEFAULT_SETTINGS } from './types';

describe('the prior-strength search on a share of the items (large data sets)', () => {
  const { data } = simulateNominal({ J: 12, I: 300, seed: 3, missing: 0, concentration: 100 });
  const n = data.J * data.I; // 3,600 observed cells

  it('keeps every item up to the cap and returns null', () => {
    expect(searchItems(data, n, 1, n)).toBeNull();
  });

  it('above the cap keeps about cap / n of the items, the same ones in any item order', () => {
    const kept = searchItems(data, n, 1, 1200)!;
    // A binomial(300, 1/3) count: mean 100, sd 8.2; ±40 is about 5 sd.
    expect(kept.length).toBeGreaterThan(60);
    expect(kept.length).toBeLessThan(140);
    const ids = new Set(kept.map((i) => data.itemIds[i]));
    const reversed = subsetDataset(
      data,
      undefined,
      Array.from({ length: data.I }, (_, i) => data.I - 1 - i),
    );
    const again = searchItems(reversed, n, 1, 1200)!;
    expect(new Set(again.map((i) => reversed.itemIds[i]))).toEqual(ids);
    // Another seed draws another share.
    const other = new Set(searchItems(data, n, 2, 1200)!.map((i) => data.itemIds[i]));
    expect(other).not.toEqual(ids);
  });

  it('says it searched a share, returns no warm start, and still picks the best candidate', async () => {
    const settings = { ...DEFAULT_SETTINGS, model: 'llmnrm' as const };
    const sel = await choosePriorStrength(data, settings, FUSED_HANDLE, { maxCells: 1200 });
    const kept = searchItems(data, n, settings.seed, 1200)!;
    expect(sel.reason).toContain(`of ${kept.length} of the 300 items`);
    expect(sel.x).toBeNull();
    expect(sel.trials.map((t) => t.lambda)).toEqual([...STRENGTH_GRID]);
    const best = sel.trials.reduce((m, t) => (t.heldOutLoss < m.heldOutLoss ? t : m));
    expect(sel.lambda).toBe(best.lambda);
    // The whole search on the items kept gives the same choice.
    const onShare = await choosePriorStrength(
      subsetDataset(data, undefined, kept),
      settings,
      FUSED_HANDLE,
    );
    expect(onShare.lambda).toBe(sel.lambda);
    expect(onShare.trials.map((t) => t.heldOutLoss)).toEqual(sel.trials.map((t) => t.heldOutLoss));
    expect(onShare.x).not.toBeNull();
  }, 120_000);
});
