import { describe, expect, it } from 'vitest';
import { fitDataset } from '../fit/fit';
import { simulateNominal } from '../model/simulate';
import { explainGap, llmAbilityViews, type LlmAbilityRow } from './abilityViews';

const row = (over: Partial<LlmAbilityRow>): LlmAbilityRow => ({
  llm: 'x',
  theta: 0,
  thetaSE: 0.2,
  accuracy: 0.5,
  meanPKey: 0.5,
  expectedAccuracy: 0.5,
  s: 1,
  thetaCorrectness: 0,
  thetaWrong: 0,
  nWrong: 10,
  infit: 1,
  outfit: 1,
  fitFlag: '',
  rankTheta: 2,
  rankAccuracy: 2,
  rankGap: 0,
  ...over,
});

describe('explainGap', () => {
  const others = [row({ llm: 'a', s: 1 }), row({ llm: 'b', s: 0.9 }), row({ llm: 'c', s: 1.1 })];

  it('names a high sharpness when θ ranks a confident LLM below its accuracy', () => {
    const q = row({
      llm: 'Qwen2.5-1.5B',
      accuracy: 0.88,
      s: 1.44,
      theta: -2.24,
      thetaCorrectness: -0.78,
      rankTheta: 4,
      rankAccuracy: 1,
      rankGap: 3,
    });
    expect(explainGap(q, [...others, q], true)).toBe(
      'Qwen2.5-1.5B: 88% correct (1st of 4) but θ = −2.24 ranks it 4th, because its sharpness ' +
        's = 1.44 is the highest: the fit explains its confident answers, right and wrong, by a ' +
        'large s and a low θ (θ from correctness alone is −0.78).',
    );
  });

  it('names the wrong answers when sharpness is ordinary', () => {
    const q = row({ llm: 'm', accuracy: 0.44, s: 1, theta: 1, thetaWrong: 1.5, rankTheta: 1 });
    const r = { ...q, rankAccuracy: 4, rankGap: -3 };
    expect(explainGap(r, [...others, r], true)).toContain(
      'because its wrong answers pick the distractors stronger LLMs pick (θ from its 10 wrong answers alone is 1.50)',
    );
    // A model without sharpness never names it.
    const flat = { ...r, s: 0.5, thetaWrong: NaN };
    expect(explainGap(flat, [...others, flat], false)).toContain('resemble stronger LLMs');
  });
});

describe('llmAbilityViews', () => {
  it('gives every LLM θ three ways, person fit and ranks, and explains the marked ones', async () => {
    const { data } = simulateNominal({ J: 8, I: 40, seed: 3, K: 4, concentration: 50 });
    const fit = await fitDataset(data, { priorStrength: 1 });
    const v = await llmAbilityViews(fit, data, { minGap: 1 });
    expect(v.rows).toHaveLength(8);
    for (const r of v.rows) {
      expect(Number.isFinite(r.thetaCorrectness)).toBe(true);
      expect(r.nWrong > 0 ? Number.isFinite(r.thetaWrong) : Number.isNaN(r.thetaWrong)).toBe(true);
      expect(r.infit).toBeGreaterThan(0);
      expect(r.expectedAccuracy).toBeGreaterThan(0);
      expect(r.expectedAccuracy).toBeLessThan(1);
      expect(r.rankGap).toBe(r.rankTheta - r.rankAccuracy);
    }
    expect([...v.rows.map((r) => r.rankTheta)].sort((a, b) => a - b)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8,
    ]);
    expect(v.marked.length).toBeLessThanOrEqual(3);
    for (const id of v.marked)
      expect(v.rows.find((r) => r.llm === id)!.explanation).toMatch(
        new RegExp(`^${id}: \\d+% correct`),
      );
    expect(v.spearman.correctnessTheta).toBeGreaterThan(0.5);
  }, 120_000);
});
