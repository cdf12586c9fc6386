/**
 * Real lm-evaluation-harness output (fixtures/real/harness, origins in its
 * README): each file loads with keys that agree with the harness's own
 * per-record score, or is skipped for the right reason.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatasetBuilder } from './builder.ts';
import { createHarnessParser } from './harness.ts';
import { loadDatasetFromPaths } from '../../node/files.ts';
import { fixturesDir } from '../../../test/support/data/utils.ts';

const real = path.join(fixturesDir, 'real', 'harness');

describe('real harness output', () => {
  it('ARC-Easy (acc, acc_norm): keys from target, every record agrees with both scores', async () => {
    const ds = await loadDatasetFromPaths([path.join(real, 'errorbars-dummy')]);
    expect(ds.itemIds).toEqual([
      'Mercury_417466',
      'Mercury_7081673',
      'Mercury_7239733',
      'NYSEDREGENTS_2015_4_8',
      'Mercury_7037258',
    ]);
    // answerKey A, B, D, D, B in the documents.
    expect(Array.from(ds.key)).toEqual([0, 1, 3, 3, 1]);
    // The task reports acc_norm, so the values are length-normalised and that check is the one kept.
    expect(ds.sources[0].producerCheck).toEqual({
      producer: 'the harness',
      metric: 'acc_norm',
      agree: 5,
      total: 5,
      ties: 0,
    });
    // Record 0 by hand: raw argmax is D (-0.014), key A, so acc 0 as the file says; after
    // dividing by the choice lengths (59, 54, 51, 43 characters) D (-0.00033) is still the
    // largest, so acc_norm 0 too.
    const note = ds.warnings.find((w) => /keys agree/.test(w.message))!.message;
    expect(note).toBe(
      "keys agree with the harness's acc on 5 of 5 records; " +
        "keys agree with the harness's acc_norm on 5 of 5 records",
    );
  });

  it('COPA, two models: 8 shared items keyed by the gold text, acc agrees on 8 of 8 for each', async () => {
    const ds = await loadDatasetFromPaths([
      path.join(real, 'tiny-random-gpt2'),
      path.join(real, 'tiny-gpt2'),
    ]);
    expect(ds.llmIds).toEqual(['tiny-random-gpt2', 'tiny-gpt2']);
    expect(ds.I).toBe(8);
    // doc.label in the eight documents: 1 1 0 1 1 0 0 0 (target is that choice's text).
    expect(Array.from(ds.key)).toEqual([1, 1, 0, 1, 1, 0, 0, 0]);
    expect(ds.itemIds[0]).toMatch(/^copa\/0-d[0-9a-f]{12}$/);
    expect(ds.observed.every((o) => o === 1)).toBe(true);
    expect(ds.itemTexts?.[0]).toEqual({
      question: 'The man turned on the faucet. (What happened as a result?)',
      options: [' the toilet filled with water.', ' water flowed from the spout.'],
    });
    for (const s of ds.sources)
      expect(s.producerCheck).toMatchObject({ metric: 'acc', agree: 8, total: 8, ties: 0 });
  });

  it('a generative GSM8K run is skipped with its note, not read as log-likelihoods', () => {
    const name = 'samples_gsm8k_cot_self_consistency_2026-10-01T13-21-10.261566.jsonl';
    const text = readFileSync(path.join(real, 'dummy-generative', name), 'utf8');
    const builder = new DatasetBuilder();
    const p = createHarnessParser(`dummy-generative/${name}`, builder, { model: 'dummy' });
    p.push(text);
    p.finish();
    expect(builder.blocks).toHaveLength(0);
    expect(builder.skipped).toHaveLength(1);
    expect(builder.skipped[0].line).toBe(1);
    expect(builder.skipped[0].message).toMatch(
      /task 'gsm8k_cot_self_consistency' was run generatively .*'\[invalid\]'/,
    );
  });
});
