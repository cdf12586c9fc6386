import { beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../core/data/types';
import type { CrossValidateResult } from '../core/eval/cv';
import type { FitJson } from '../core/fit/types';
import type { ModelType } from '../core/model/types';
import { cvSection } from './sections/cv';
import { psychSection } from './sections/psych';
import { subsetSection, subsets } from './sections/subset';
import { demoFit } from './testing';

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('section 8: the held-out comparison', () => {
  it('says it was not run when not asked for', () => {
    expect(text(cvSection(undefined))).toContain('Not run');
  });

  it('names the model with the lowest held-out option log-loss and shows every row', () => {
    const row = (model: ModelType, ll: number) => ({
      model,
      optionLogLoss_mean: ll,
      optionLogLoss_sd: 0.01,
      optionAcc_mean: 0.8,
      optionAcc_sd: 0.02,
      binaryLogLoss_mean: 0.3,
      binaryLogLoss_sd: 0.01,
      binaryAcc_mean: 0.9,
      binaryAcc_sd: 0.01,
      binaryBrier_mean: 0.1,
      binaryBrier_sd: 0.005,
    });
    const cv: CrossValidateResult = {
      folds: 5,
      seed: 1,
      perFold: [],
      summary: [row('nrm-soft', 0.41), row('llmnrm', 0.37512), row('2pl', NaN)],
    };
    const t = text(cvSection(cv));
    expect(t).toContain('Over 5 folds of held-out cells (seed 1), llmnrm predicts');
    expect(t).toContain('(log-loss 0.3751 nats per cell)');
    expect(t).toContain('nrm-soft 0.4100 0.0100');
    expect(t).toContain('2pl — 0.0100');
  });
});

describe('sections 6 and 7 on the demo', () => {
  let ds: Dataset;
  let fit: FitJson;
  beforeAll(async () => {
    ({ ds, fit } = await demoFit());
  }, 300_000);

  it('runs DIF when groups are given: one row per item for two groups', () => {
    const group = ds.llmIds.map((id) => (id.startsWith('Qwen') ? 'qwen' : 'other'));
    const html = psychSection(ds, fit, { group, names: ['other', 'qwen'] });
    expect(text(html)).toMatch(
      /Mantel–Haenszel DIF: flagged items \(\d+ of 345 item–group pairs\)/,
    );
    expect(text(psychSection(ds, fit, undefined))).toContain('DIF was not run');
  });

  it('builds the 41- and 100-item subsets with their share of the 345 items', async () => {
    const subs = await subsets(ds, fit, [100, 41, 345, 1000]);
    expect(subs.map((s) => [s.k, s.items.length])).toEqual([
      [41, 41],
      [100, 100],
    ]);
    for (const s of subs) {
      expect(new Set(s.items.map((x) => x.item)).size).toBe(s.k);
      expect(s.tau).toBeGreaterThan(0.5);
      expect(s.tau).toBeLessThanOrEqual(1);
    }
    const t = text(subsetSection(subs, ds.I));
    expect(t).toContain('41 11.9%');
    expect(t).toContain('100 29.0%');
  });
});
