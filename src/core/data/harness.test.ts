import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { harnessTaskName } from './harness.ts';
import { stableHash } from './harnessDoc.ts';
import { loadDataset } from './load.ts';
import { loadDatasetFromPaths } from './node.ts';
import { cell, expectDataError, fixturesDir, loadTexts } from './test-utils.ts';

const tiny = path.join(fixturesDir, 'harness', 'tiny-llm');
const other = path.join(fixturesDir, 'harness', 'other-llm');
const tinyFile = 'samples_toy_2024-06-01T10-20-30.123456.jsonl';
const water = `toy/q${stableHash(['Is water wet?', 'yes', 'no'].join('\u0000'))}`;

/** Softmax written out independently of the loader. */
function softmax(ll: number[]): number[] {
  const e = ll.map(Math.exp);
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}

function expectClose(got: number[], want: number[]) {
  expect(got.length).toBe(want.length);
  got.forEach((g, k) => expect(Math.abs(g - want[k])).toBeLessThan(1e-6));
}

describe('lm-evaluation-harness samples', () => {
  it('takes the task from the file name', () => {
    expect(harnessTaskName(`x/${tinyFile}`)).toBe('toy');
    expect(harnessTaskName('samples_mmlu_high_school_math_2025-01-02T03-04-05.678.jsonl')).toBe(
      'mmlu_high_school_math',
    );
  });

  it('loads model folders: softmax, keys, option counts, missing cells', async () => {
    const ds = await loadDatasetFromPaths([tiny, other]);
    expect(ds.llmIds).toEqual(['tiny-llm', 'other-llm']);
    // doc.id where the record has one; otherwise a hash of the question and choices.
    expect(ds.itemIds).toEqual(['toy-grass', water, 'toy-five']);
    expect(Array.from(ds.nOptions)).toEqual([3, 2, 5]);
    expect(Array.from(ds.key)).toEqual([1, 0, 4]);
    expect(ds.benchmarks).toEqual(['toy', 'toy', 'toy']);
    expect(ds.Kmax).toBe(5);
    expectClose(cell(ds, 'tiny-llm', 'toy-grass'), softmax([-1, -0.5, -2]));
    expectClose(cell(ds, 'tiny-llm', water), softmax([-3, -1.5]));
    expectClose(cell(ds, 'tiny-llm', 'toy-five'), softmax([-4, -3, -2.5, -6, -0.25]));
    expectClose(cell(ds, 'other-llm', 'toy-five'), [0.2, 0.2, 0.2, 0.2, 0.2]);
    expectClose(cell(ds, 'other-llm', 'toy-grass'), softmax([-0.1, -3, -3]));
    expect(Array.from(ds.observed)).toEqual([1, 1, 1, 1, 0, 1]);
    // Leakage is 1 - sum of exp(loglikelihood): the mass the model put elsewhere.
    const leak = 1 - (Math.exp(-1) + Math.exp(-0.5) + Math.exp(-2));
    expect(ds.leakage[0]).toBeCloseTo(leak, 6);
    expect(Number.isNaN(ds.leakage[4])).toBe(true);
    expect(ds.itemTexts?.[0]).toEqual({
      question: 'Which colour is grass?',
      options: ['red', 'green', 'blue'],
    });
    expect(ds.sources.map((s) => s.format)).toEqual(['harness', 'harness']);
    // The padding beyond an item's options stays zero.
    expect(ds.obs[1 * ds.Kmax + 2]).toBe(0);
  });

  it('length-normalises by choice text length', async () => {
    const ds = await loadDatasetFromPaths([tiny], { lengthNormalise: true });
    expectClose(cell(ds, 'tiny-llm', 'toy-grass'), softmax([-1 / 3, -0.5 / 5, -2 / 4]));
    expectClose(cell(ds, 'tiny-llm', water), softmax([-3 / 3, -1.5 / 2]));
    expectClose(
      cell(ds, 'tiny-llm', 'toy-five'),
      softmax([-4 / 3, -3 / 3, -2.5 / 5, -6 / 4, -0.25 / 4]),
    );
    expect(Number.isNaN(ds.leakage[0])).toBe(true);
    expect(ds.sources[0].valueKindReason).toMatch(/lengthNormalise/);
  });

  it('takes the model from the folder in a File name, or from the option', async () => {
    const text = readFileSync(path.join(tiny, tinyFile), 'utf8');
    const a = await loadDataset([{ name: `tiny-llm/${tinyFile}`, text }]);
    expect(a.llmIds).toEqual(['tiny-llm']);
    const b = await loadDataset([{ name: tinyFile, text }], { model: 'named' });
    expect(b.llmIds).toEqual(['named']);
    await expectDataError(loadDataset([{ name: tinyFile, text }]), {
      message: /which model/,
    });
  });

  it('rejects bad lines with their line number', async () => {
    const ok = '{"doc_id": 0, "target": 0, "filtered_resps": [["-1", "False"], ["-2", "False"]]}';
    const name = 'm/samples_t_2024-01-01T00-00-00.jsonl';
    await expectDataError(
      loadTexts({
        [name]: `${ok}\n{"doc_id": 1, "target": 2, "filtered_resps": [["-1","F"],["-2","F"]]}\n`,
      }),
      {
        line: 2,
        column: 'target',
        message: /target 2 is beyond the 2 choices/,
      },
    );
    await expectDataError(loadTexts({ [name]: `${ok}\n{"doc_id": 1,\n` }), {
      line: 2,
      message: /invalid JSON/,
    });
    await expectDataError(
      loadTexts({
        [name]: `${ok}\n{"doc_id": 1, "target": 0, "filtered_resps": [["0.5","F"],["-2","F"]]}\n`,
      }),
      {
        line: 2,
        column: 'filtered_resps',
        message: /positive/,
      },
    );
    await expectDataError(
      loadTexts({ [name]: `${ok}\n${ok.replace('"target": 0', '"target": 1')}\n` }),
      {
        line: 2,
        column: 'key',
        message: /disagrees with key A at line 1/,
      },
    );
    await expectDataError(loadTexts({ [name]: ok }, { lengthNormalise: true }), {
      line: 1,
      column: 'arguments',
      message: /lengthNormalise needs the choice texts/,
    });
  });
});
