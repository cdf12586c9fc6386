import { describe, expect, it } from 'vitest';
import type { Dataset } from '../data/types';
import { fitDataset } from '../fit/fit';
import type { FitJson, ItemResult } from '../fit/types';
import { createRng, permutation } from '../model/rng';
import { simulateNominal } from '../model/simulate';
import { flagItems, type ItemFlag } from './flags';

const item = (id: string, key: string, a: number[], c: number[]): ItemResult => ({
  id,
  benchmark: 'hand',
  key,
  nOptions: a.length,
  a,
  c,
  b: 0,
});

/** Ten LLMs over θ ∈ [−1.5, 1.5] and five hand-made 4-option items (NRM, no LLM terms). */
function handFit(): FitJson {
  const llms = Array.from({ length: 10 }, (_, j) => ({
    id: `m${j}`,
    theta: -1.5 + (3 * j) / 9,
    thetaSE: 0.2,
    s: 1,
    delta: [0, 0, 0, 0],
    rho: [0, 0, 0, 0],
    accuracy: 0.5,
    nObserved: 5,
  }));
  const items = [
    // Sound: the key rises with θ; B is the favourite wrong answer of weak LLMs.
    item('good', 'A', [1.5, 0.5, -1, -1], [0, 1, -0.5, -0.5]),
    // C rises far faster than the key A and overtakes it: probably C is right.
    item('miskeyed', 'A', [-0.5, 0.2, 1.3, -1], [0.3, 0, 0, -0.3]),
    // Nothing discriminates and the key falls slightly with θ.
    item('flat', 'D', [0.04, 0.04, 0.04, -0.12], [0, 0, 0, 0]),
    // Everyone is sure of A.
    item('easy', 'A', [0.5, -0.1, -0.2, -0.2], [8, 0, 0, 0]),
    item('twin', 'A', [1.5, 0.5, -1, -1], [0, 1, -0.5, -0.5]),
  ];
  return {
    schema: 'llm-nrm-fit/1',
    model: 'nrm-soft',
    Kmax: 4,
    llms,
    items,
    global: { w0: 0, kappa: 0 },
  } as unknown as FitJson;
}

/** Data for the hand fit: 'easy' saturated; 'good' and 'twin' with identical mixed answer patterns. */
function handData(fit: FitJson): Dataset {
  const J = 10;
  const I = 5;
  const obs = new Float32Array(J * I * 4);
  const set = (j: number, i: number, p: number[]) => obs.set(p, (j * I + i) * 4);
  for (let j = 0; j < J; j++) {
    const pattern =
      j < 4 ? [0.1, 0.7, 0.1, 0.1] : j < 6 ? [0.2, 0.1, 0.6, 0.1] : [0.8, 0.1, 0.05, 0.05];
    set(j, 0, pattern);
    set(j, 4, pattern);
    set(j, 1, [0.2, 0.2, 0.5, 0.1]);
    set(j, 2, [0.25, 0.25, 0.25, 0.25]);
    set(j, 3, [0.97, 0.01, 0.01, 0.01]);
  }
  return {
    J,
    I,
    Kmax: 4,
    llmIds: fit.llms.map((l) => l.id),
    itemIds: fit.items.map((it) => it.id),
    benchmarks: fit.items.map(() => 'hand'),
    nOptions: new Uint8Array(I).fill(4),
    key: Uint8Array.from([0, 0, 3, 0, 0]),
    obs,
    observed: new Uint8Array(J * I).fill(1),
    leakage: new Float32Array(J * I),
    sources: [],
    warnings: [],
  };
}

const kinds = (flags: ItemFlag[], id: string) =>
  flags
    .filter((f) => f.item === id)
    .map((f) => f.flag)
    .sort();

describe('item quality flags on hand-made items', () => {
  const fit = handFit();
  const ds = handData(fit);

  it('flags each problem on the item that has it, with a reason and evidence', () => {
    const flags = flagItems(fit, ds);
    expect(kinds(flags, 'good')).toEqual(['duplicate-pattern']);
    expect(kinds(flags, 'twin')).toEqual(['duplicate-pattern']);
    expect(kinds(flags, 'miskeyed')).toContain('possibly-mis-keyed');
    expect(kinds(flags, 'flat')).toEqual(['non-discriminating']);
    expect(kinds(flags, 'easy')).toEqual(['no-informative-distractor', 'saturated']);
    const mis = flags.find((f) => f.flag === 'possibly-mis-keyed')!;
    expect(mis.option).toBe('C');
    expect(mis.reason).toMatch(/Option C .* key A/);
    expect(mis.evidence).toMatch(/a_C = 1\.30 vs a_key = -0\.50/);
    expect(flags.find((f) => f.item === 'good')!.reason).toContain('twin');
    expect(flags.find((f) => f.flag === 'saturated')!.evidence).toMatch(
      /10 LLMs, smallest probability on A: 0\.97/,
    );
  });

  it('never flags as mis-keyed an item every LLM answers correctly, however its curves cross beyond the data', () => {
    // The 'miskeyed' item's curves say C overtakes A, but in these data every
    // LLM's top answer is the key A: nothing inside the data says A is wrong.
    const d2 = handData(fit);
    for (let j = 0; j < 10; j++) d2.obs.set([0.55, 0.05, 0.35, 0.05], (j * 5 + 1) * 4);
    const flags = flagItems(fit, d2);
    expect(kinds(flags, 'miskeyed')).not.toContain('possibly-mis-keyed');
    // Without data, the model's own curves at the fitted θ are the evidence: a
    // crossing only beyond the highest θ (1.5) does not count.
    const beyond = handFit();
    // a_C − a_A = 1.8; c_A − c_C = 3.6 puts the crossing at θ = 2, above every LLM.
    beyond.items[1] = item('miskeyed', 'A', [-0.5, 0.2, 1.3, -1], [1.8, 0, -1.8, 0]);
    expect(kinds(flagItems(beyond), 'miskeyed')).not.toContain('possibly-mis-keyed');
    // Moved inside the range (crossing at θ = 0.5), it is flagged.
    beyond.items[1] = item('miskeyed', 'A', [-0.5, 0.2, 1.3, -1], [0.45, 0, -0.45, 0]);
    expect(kinds(flagItems(beyond), 'miskeyed')).toContain('possibly-mis-keyed');
  });

  it('without data, judges saturation from the model and skips duplicates', () => {
    const flags = flagItems(fit);
    expect(kinds(flags, 'easy')).toEqual(['no-informative-distractor', 'saturated']);
    expect(flags.find((f) => f.flag === 'saturated')!.evidence).toMatch(/model-predicted/);
    expect(flags.some((f) => f.flag === 'duplicate-pattern')).toBe(false);
  });

  it('a common wrong answer, or a one-LLM difference, does not make items duplicates', () => {
    const d2 = handData(fit);
    // Every LLM but one on the key: patterns this plain coincide by chance.
    for (let j = 0; j < 10; j++)
      for (const i of [0, 4])
        d2.obs.set(j === 9 ? [0.1, 0.7, 0.1, 0.1] : [0.8, 0.1, 0.05, 0.05], (j * 5 + i) * 4);
    expect(flagItems(fit, d2).some((f) => f.flag === 'duplicate-pattern')).toBe(false);
  });
});

describe('recovering swapped keys in simulated data', () => {
  it('flags ≥ 80% of swapped keys as possibly mis-keyed and ≤ 5% of intact items', async () => {
    // Seeds 41 and 42 were not used to tune the rule (tuning: the simulations of
    // flagItems' comment, seeds 1001–1010 of simulateNominal).
    let swappedHit = 0;
    let swappedN = 0;
    let intactHit = 0;
    let intactN = 0;
    for (const seed of [41, 42]) {
      const { data } = simulateNominal({ J: 60, I: 300, seed, concentration: 100 });
      const rng = createRng(seed * 7 + 1);
      const swapped = new Set(Array.from(permutation(data.I, rng).slice(0, 15)));
      for (const i of swapped) {
        let d = rng.int(data.nOptions[i] - 1);
        if (d >= data.key[i]) d++;
        data.key[i] = d;
      }
      const fit = await fitDataset(data, { model: 'llmnrm' });
      const flagged = new Set(
        flagItems(fit, data)
          .filter((f) => f.flag === 'possibly-mis-keyed')
          .map((f) => f.item),
      );
      data.itemIds.forEach((id, i) => {
        if (swapped.has(i)) {
          swappedN++;
          if (flagged.has(id)) swappedHit++;
        } else {
          intactN++;
          if (flagged.has(id)) intactHit++;
        }
      });
    }
    console.log('mis-keyed recovery', {
      swapped: `${swappedHit}/${swappedN}`,
      intact: `${intactHit}/${intactN}`,
    });
    // The goal is recall ≥ 0.90 at ≤ 5% false flags. The rule that
    // reads only evidence inside the data reaches a mean recall of 0.90 (0.80
    // on its worst of ten tuning seeds) at ≤ 4.6% false flags; this test holds
    // the floor it meets on every seed measured, not the goal.
    expect(swappedHit / swappedN).toBeGreaterThanOrEqual(0.8);
    expect(intactHit / intactN).toBeLessThanOrEqual(0.05);
  });
});
