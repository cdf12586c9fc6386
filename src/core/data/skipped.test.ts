/**
 * Issue 26: a file that cannot be used is skipped with its reason and the rest
 * loads; strict mode fails on the first; nothing usable lists every file; LLMs
 * left without a cell are dropped; Inspect and HELM keys are checked against
 * the producer's own score.
 */
import { describe, expect, it } from 'vitest';
import { dropEmptyLlms } from './assemble.ts';
import { groupSkipped } from './summary.ts';
import { loadDataset, type LoadInput, type LoadOptions } from './load.ts';
import { harnessRecord } from '../../../test/support/data/harnessRoot.ts';
import { helmState, inspectJson, type Cells } from '../../../test/support/data/results.ts';
import { expectDataError } from '../../../test/support/data/utils.ts';
import type { Dataset } from './types.ts';

/** Two models, three items of three options; m0 is right on q1 and q2, m1 on q3 only. */
const cells: Cells = {
  task: 'toy',
  models: ['m0', 'm1'],
  items: [
    { id: 'q1', key: 0, question: 'one?', options: ['a', 'b', 'c'] },
    { id: 'q2', key: 1, question: 'two?', options: ['d', 'e', 'f'] },
    { id: 'q3', key: 2, question: 'three?', options: ['g', 'h', 'i'] },
  ],
  p: [
    [
      [0.7, 0.2, 0.1],
      [0.1, 0.6, 0.3],
      [0.5, 0.3, 0.2],
    ],
    [
      [0.2, 0.5, 0.3],
      [0.6, 0.3, 0.1],
      [0.1, 0.1, 0.8],
    ],
  ],
};

const LFS =
  'version https://git-lfs.github.com/spec/v1\n' +
  'oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 1234567\n';
const jsonl = (recs: unknown[]) => recs.map((r) => JSON.stringify(r)).join('\n') + '\n';
const gen = { doc_id: 0, doc: { id: 'g' }, target: 'B', resps: [['B']], filtered_resps: ['B'] };
const good = (model: string) =>
  harnessRecord({ model, item: 'h1', benchmark: 't', key: 0, probs: [0.6, 0.4] }, 0);

/** Inspect logs of both models, a generative harness run, a broken JSON line, an LFS pointer. */
function mixedFolder(): LoadInput[] {
  return [
    ...inspectJson(cells).map((f) => ({ name: `run/${f.name}`, text: f.text! })),
    { name: 'run/gen-model/samples_gsm_2025-01-01T00-00-00.jsonl', text: jsonl([gen]) },
    {
      name: 'run/broken-model/samples_t_2025-01-01T00-00-00.jsonl',
      text: `${JSON.stringify(good('broken-model'))}\n{"doc_id": 1,\n`,
    },
    { name: 'run/lfs/details.parquet', text: LFS },
  ];
}

describe('per-file isolation (issue 26)', () => {
  it('loads the usable files and lists every other with its own reason', async () => {
    const ds = await loadDataset(mixedFolder());
    expect(ds.llmIds).toEqual(['m0', 'm1']);
    expect(ds.I).toBe(3);
    expect(ds.skipped?.map((s) => s.file)).toEqual([
      'run/lfs/details.parquet',
      'run/gen-model/samples_gsm_2025-01-01T00-00-00.jsonl',
      'run/broken-model/samples_t_2025-01-01T00-00-00.jsonl',
    ]);
    const [lfs, generative, broken] = ds.skipped!;
    expect(lfs.reason).toMatch(
      /^this is a Git LFS pointer to a file of 1,234,567 bytes, not the file's content; fetch the file \(git lfs pull\)/,
    );
    expect(generative.reason).toMatch(/task 'gsm' was run generatively/);
    expect(broken).toMatchObject({ line: 2 });
    expect(broken.reason).toMatch(/invalid JSON/);
    // The broken file's first record was read before the error: nothing of it is kept.
    expect(ds.itemIds).not.toContain('h1');
  });

  it('strict mode fails naming the first file that could not be used', async () => {
    await expectDataError(loadDataset(mixedFolder(), { strict: true }), {
      file: 'run/lfs/details.parquet',
      // It stops there: the generative and broken logs are not even read.
      message:
        /^run\/lfs\/details\.parquet, line 1: strict mode: this file could not be used: this is a Git LFS pointer to a file of 1,234,567 bytes, not the file's content; fetch the file \(git lfs pull\) \(expected the file itself, not its pointer\)$/,
    });
  });

  it('with nothing usable, lists each file and why it gave nothing', async () => {
    const files = mixedFolder().slice(2);
    const err = await loadDataset(files).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    const lines = (err as Error).message.split('\n');
    expect(lines[0]).toBe('no usable data file: 3 files gave nothing:');
    expect(lines[1]).toMatch(/^ {2}run\/lfs\/details\.parquet line 1: this is a Git LFS pointer/);
    expect(lines[2]).toMatch(/^ {2}run\/gen-model\/\S+ line 1: .*run generatively/);
    expect(lines[3]).toMatch(/^ {2}run\/broken-model\/\S+ line 2: invalid JSON/);
  });

  it('a single unusable file keeps its own error (file, line, column)', async () => {
    await expectDataError(loadDataset([{ name: 'big.parquet', text: LFS }]), {
      file: 'big.parquet',
      line: 1,
      message: /Git LFS pointer/,
    });
  });

  it("one numeric generative harness file (issue 26's '1 choices') no longer stops the folder", async () => {
    const numeric = {
      doc_id: 0,
      doc: { id: 'w' },
      target: '1',
      resps: [['1']],
      filtered_resps: ['1'],
    };
    const ds = await loadDataset([
      { name: 'a/samples_t_2025-01-01T00-00-00.jsonl', text: jsonl([good('a')]) },
      { name: 'b/samples_t_2025-01-01T00-00-00.jsonl', text: jsonl([good('b')]) },
      { name: 'b/samples_kobest_2025-01-01T00-00-00.jsonl', text: jsonl([numeric]) },
    ]);
    expect(ds.llmIds).toEqual(['a', 'b']);
    expect(ds.itemIds).toEqual(['h1']);
    expect(ds.skipped?.map((x) => x.file)).toEqual(['b/samples_kobest_2025-01-01T00-00-00.jsonl']);
  });

  it('a model whose files were all skipped is no LLM', async () => {
    const opts: LoadOptions = {};
    const ds = await loadDataset(
      [
        { name: 'a/samples_t_2025-01-01T00-00-00.jsonl', text: jsonl([good('a')]) },
        { name: 'b/samples_t_2025-01-01T00-00-00.jsonl', text: jsonl([good('b')]) },
        { name: 'c/samples_gsm_2025-01-01T00-00-00.jsonl', text: jsonl([gen]) },
      ],
      opts,
    );
    expect(ds.llmIds).toEqual(['a', 'b']);
    expect(ds.observed.length).toBe(2 * ds.I);
  });
});

describe('groupSkipped', () => {
  it('groups reasons that differ only in quoted values and numbers; each file keeps its own', () => {
    const gen = (task: string, answer: string) =>
      `skipped: task '${task}' was run generatively (the model wrote its answer, '${answer}', instead)`;
    const lfs = (n: string) => `this is a Git LFS pointer to a file of ${n} bytes; fetch it`;
    const groups = groupSkipped([
      { file: 'a', reason: gen('gsm8k', '18') },
      { file: 'b', reason: lfs('1,234,567') },
      { file: 'c', line: 3, reason: gen('winogrande', '1') },
      { file: 'd', reason: lfs('12') },
      { file: 'e', reason: 'not a format the workbench reads' },
    ]);
    expect(groups.map((g) => [g.reason, g.files.map((f) => f.file)])).toEqual([
      [gen('gsm8k', '18'), ['a', 'c']],
      [lfs('1,234,567'), ['b', 'd']],
      ['not a format the workbench reads', ['e']],
    ]);
    expect(groups[0].files[1]).toEqual({ file: 'c', line: 3, reason: gen('winogrande', '1') });
  });
});

describe('dropEmptyLlms', () => {
  it('leaves out an LLM with no observed cell, keeping the others cell for cell', () => {
    const ds: Dataset = {
      J: 3,
      I: 2,
      Kmax: 2,
      llmIds: ['x', 'empty', 'z'],
      itemIds: ['i1', 'i2'],
      benchmarks: ['', ''],
      nOptions: Uint8Array.of(2, 2),
      key: Uint8Array.of(0, 1),
      obs: Float32Array.of(0.5, 0.5, 0.25, 0.75, 0, 0, 0, 0, 1, 0, 0, 0),
      observed: Uint8Array.of(1, 1, 0, 0, 1, 0),
      leakage: Float32Array.of(0, 0.125, NaN, NaN, 0.5, NaN),
      sources: [],
      warnings: [],
    };
    const out = dropEmptyLlms(ds);
    expect(out.J).toBe(2);
    expect(out.llmIds).toEqual(['x', 'z']);
    expect(Array.from(out.obs)).toEqual([0.5, 0.5, 0.25, 0.75, 1, 0, 0, 0]);
    expect(Array.from(out.observed)).toEqual([1, 1, 1, 0]);
    expect(Array.from(out.leakage)).toEqual([0, 0.125, 0.5, NaN]);
    expect(out.warnings[0].message).toBe(
      "1 LLM with no observed cell left out ('empty'): every file of this model was skipped or empty",
    );
    expect(dropEmptyLlms(out)).toBe(out);
  });
});

describe('key checks against the producer (issue 26)', () => {
  it('Inspect: keys agree with the choice score on 3 of 3 samples; a flipped score refuses the file', async () => {
    const [f0] = inspectJson(cells);
    const ds = await loadDataset([{ name: f0.name, text: f0.text! }]);
    expect(ds.sources[0].producerCheck).toEqual({
      producer: 'Inspect',
      metric: 'choice score',
      agree: 3,
      total: 3,
      ties: 0,
    });
    expect(
      ds.warnings.some((w) => /keys agree with Inspect's choice score on 3 of 3/.test(w.message)),
    ).toBe(true);
    // m0 is wrong on q3 (argmax a, key c): say Inspect scored it correct.
    const doc = JSON.parse(f0.text!) as { samples: { scores: { choice: { value: string } } }[] };
    expect(doc.samples[2].scores.choice.value).toBe('I');
    doc.samples[2].scores.choice.value = 'C';
    await expectDataError(loadDataset([{ name: f0.name, text: JSON.stringify(doc) }]), {
      file: f0.name,
      column: 'scores.choice',
      message:
        /disagree with Inspect's own choice score on 1 of 3 records; first at line 3: key C with the largest value at A/,
    });
  });

  it('Inspect: a tie at the top with the key among it is counted apart, not refused', async () => {
    const tied: Cells = {
      ...cells,
      models: ['m0'],
      p: [[[0.4, 0.4, 0.2], ...cells.p[0].slice(1)]],
    };
    const doc = JSON.parse(inspectJson(tied)[0].text!) as {
      samples: { scores: { choice: { value: string } } }[];
    };
    // Inspect read the written letter B (wrong); argmax takes the first of the tie, A (right).
    doc.samples[0].scores.choice.value = 'I';
    const ds = await loadDataset([{ name: 'tie.json', text: JSON.stringify(doc) }]);
    expect(ds.sources[0].producerCheck).toMatchObject({ agree: 2, total: 3, ties: 1 });
  });

  it('HELM joint adapter: keys agree with exact_match of the written letter; a contrary one refuses', async () => {
    const state = (id: string, key: number, wrote: string, top: Record<string, number>) => ({
      instance: {
        input: { text: `question ${id}` },
        references: ['x', 'y', 'z'].map((t, k) => ({
          output: { text: `${t}${id}` },
          tags: k === key ? ['correct'] : [],
        })),
        split: 'test',
        id,
      },
      train_trial_index: 0,
      output_mapping: { A: `x${id}`, B: `y${id}`, C: `z${id}` },
      result: {
        success: true,
        completions: [
          {
            text: wrote,
            logprob: top[wrote],
            tokens: [{ text: wrote, logprob: top[wrote], top_logprobs: top }],
          },
        ],
      },
    });
    const doc = (wrote2: string) => ({
      adapter_spec: { method: 'multiple_choice_joint', model: 'org/m' },
      request_states: [
        state('1', 1, 'B', { B: -0.1, A: -2.5, ' C': -3 }),
        state('2', 0, wrote2, { B: -0.2, A: -1.9, C: -4 }),
      ],
    });
    const name = 'runs/mmlu:subject=x,model=org_m/scenario_state.json';
    const ds = await loadDataset([{ name, text: JSON.stringify(doc('B')) }]);
    expect(ds.sources[0].producerCheck).toEqual({
      producer: 'HELM',
      metric: 'exact_match',
      agree: 2,
      total: 2,
      ties: 0,
    });
    // Instance 2's written letter A would be right, but its log-probabilities put B first.
    await expectDataError(loadDataset([{ name, text: JSON.stringify(doc('A')) }]), {
      file: name,
      message: /disagree with HELM's own exact_match on 1 of 2 records/,
    });
  });

  it('HELM (separate adapter) has no per-record score of its own to check against', async () => {
    const [f] = helmState(cells);
    const ds = await loadDataset([{ name: f.name, text: f.text! }]);
    expect(ds.sources[0].producerCheck).toBeUndefined();
  });
});
