import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatasetBuilder } from './builder.ts';
import { createHarnessParser, harnessTaskName, type HarnessOptions } from './harness.ts';
import { docQuestion, harnessItemId, stableHash } from './harnessDoc.ts';
import { harnessParquet } from '../../../test/support/data/harnessFiles.ts';
import { DataError } from './types.ts';
import { loadDataset } from './load.ts';
import { loadDatasetFromPaths } from '../../node/files.ts';
import { cell, expectDataError, fixturesDir, loadTexts } from '../../../test/support/data/utils.ts';

const tiny = path.join(fixturesDir, 'harness', 'tiny-llm');
const other = path.join(fixturesDir, 'harness', 'other-llm');
const tinyFile = 'samples_toy_2024-06-01T10-20-30.123456.jsonl';
// No doc.id: the task, doc_id and a hash of the raw doc's JSON, keys sorted, written out here.
const water = `toy/1-d${stableHash('{"question":"Is water wet?"}')}`;

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

/** Reads one samples file into a fresh builder (the parser alone, no load plan). */
function readFile(name: string, lines: string[], opts: Partial<HarnessOptions> = {}) {
  const builder = new DatasetBuilder();
  const p = createHarnessParser(name, builder, { model: 'm', ...opts });
  p.push(lines.join('\n') + '\n');
  p.finish();
  return builder;
}

/** The DataError `f` throws. */
function thrown(f: () => unknown): DataError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(DataError);
    return e as DataError;
  }
  throw new Error('no error thrown');
}

const pairs = (lls: number[]) => lls.map((v) => [String(v), 'False']);

/**
 * A Winogrande record as the harness writes it (written here in its shape): each
 * choice is a context ending in one option, the continuation after the blank is
 * shared, `target` is that continuation and the gold is doc.answer ("1", "2").
 */
function wino(docId: number, end: string, answer: string, lls: number[], acc: number, tpl = '') {
  const sentence = `Sarah was a much better surgeon than Maria so _ ${end}`;
  const ctx = (o: string) => `${tpl}Sarah was a much better surgeon than Maria so ${o}`;
  return JSON.stringify({
    doc_id: docId,
    doc: { sentence, option1: 'Sarah', option2: 'Maria', answer },
    target: end,
    arguments: {
      gen_args_0: { arg_0: ctx('Sarah'), arg_1: ` ${end}` },
      gen_args_1: { arg_0: ctx('Maria'), arg_1: ` ${end}` },
    },
    resps: lls.map((v) => [[String(v), 'False']]),
    filtered_resps: pairs(lls),
    filter: 'none',
    metrics: ['acc'],
    acc,
  });
}

/** A plain multiple-choice record: `choices` are the continuations, `target` the gold index. */
function mc(docId: number, target: number, choices: string[], lls: number[], score: object) {
  return JSON.stringify({
    doc_id: docId,
    doc: { prompt: `Prompt ${docId}`, choices },
    target,
    arguments: choices.map((c) => [`Prompt ${docId}\nAnswer:`, ` ${c}`]),
    filtered_resps: pairs(lls),
    filter: 'none',
    ...score,
  });
}

describe("harness keys checked against the harness's own score", () => {
  it('Winogrande (multiple input): the gold from doc.answer, items shared across chat templates', async () => {
    const a = [
      wino(0, 'always got the harder cases.', '1', [-4, -5], 1),
      wino(1, 'always got the easier cases.', '2', [-4, -5], 0),
    ];
    const b = [
      wino(0, 'always got the harder cases.', '1', [-7, -6], 0, '<|user|>'),
      wino(1, 'always got the easier cases.', '2', [-9, -6], 1, '<|user|>'),
    ];
    const f = 'samples_winogrande_2024-06-01T00-00-00.000000.jsonl';
    const ds = await loadTexts({ [`a/${f}`]: a.join('\n'), [`b/${f}`]: b.join('\n') });
    // Matching target against the choices would key both items A.
    expect(Array.from(ds.key)).toEqual([0, 1]);
    expect(ds.J).toBe(2);
    expect(ds.I).toBe(2);
    expect(ds.itemTexts?.[1]).toEqual({
      question: 'Sarah was a much better surgeon than Maria so _ always got the easier cases.',
      options: ['Sarah', 'Maria'],
    });
    for (const s of ds.sources)
      expect(s.producerCheck).toEqual({
        producer: 'the harness',
        metric: 'acc',
        agree: 2,
        total: 2,
        ties: 0,
      });
    expect(ds.warnings.map((w) => w.message)).toContain(
      "keys agree with the harness's acc on 2 of 2 records",
    );
  });

  it('WSC273 (multiple input, doc_to_text: label): the gold from doc.label over doc.options', () => {
    const text =
      'The city councilmen refused the demonstrators a permit because they feared violence.';
    const ctx = (o: string) =>
      `The city councilmen refused the demonstrators a permit because ${o}`;
    const rec = (label: number, lls: number[], acc: number) =>
      JSON.stringify({
        doc_id: 0,
        doc: {
          text,
          pronoun: 'they',
          pronoun_loc: 63,
          options: ['The city councilmen', 'The demonstrators'],
          label,
        },
        target: ' feared violence.',
        arguments: [
          [ctx('The city councilmen'), '  feared violence.'],
          [ctx('The demonstrators'), '  feared violence.'],
        ],
        filtered_resps: pairs(lls),
        acc,
      });
    const b = readFile('samples_wsc273_2024-01-01T00-00-00.jsonl', [rec(0, [-3, -4], 1)]);
    expect(b.itemKey).toEqual([0]);
    expect(b.itemText[0]?.options).toEqual(['The city councilmen', 'The demonstrators']);
    // A label that the harness's own acc contradicts is refused by the key check.
    const e = thrown(() =>
      readFile('samples_wsc273_2024-01-01T00-00-00.jsonl', [rec(1, [-3, -4], 1)]),
    );
    expect(e.column).toBe('acc');
  });

  it('refuses a multiple-input task whose gold it cannot read, naming the task', () => {
    const rec = JSON.parse(wino(0, 'got the cases.', '1', [-4, -5], 1)) as Record<string, unknown>;
    rec.doc = { sentence: 'So _ got the cases.' };
    const e = thrown(() =>
      readFile('samples_xwino_en_2024-01-01T00-00-00.jsonl', [JSON.stringify(rec)]),
    );
    expect(e.line).toBe(1);
    expect(e.message).toMatch(/task 'xwino_en' is a multiple-input task/);
    expect(e.message).toMatch(/continuation 'got the cases\.' is shared/);
  });

  it('refuses a file whose keys disagree with acc, naming the first line and both values', () => {
    const lines = [
      mc(0, 0, ['yes', 'no'], [-1, -2], { acc: 1.0 }),
      mc(1, 0, ['yes', 'no'], [-1, -2], { acc: 0.0 }),
      mc(2, 1, ['yes', 'no'], [-1, -2], { acc: 1.0 }),
    ];
    const e = thrown(() => readFile('samples_t_2024-01-01T00-00-00.jsonl', lines));
    expect(e.line).toBe(2);
    expect(e.column).toBe('acc');
    expect(e.message).toMatch(
      /disagree with the harness's own acc on 2 of 3 records; first at line 2: key A with the largest value at A makes the record correct, but its acc is 0 \(wrong\)/,
    );
  });

  it('refuses a target text that two choices share, and an acc that is not 0 or 1', () => {
    const dup = mc(0, 0, ['none', 'cat', 'none'], [-1, -2, -3], { acc: 1.0 });
    const rec = { ...(JSON.parse(dup) as object), target: 'none' };
    const e = thrown(() => readFile('samples_t_2024-01-01T00-00-00.jsonl', [JSON.stringify(rec)]));
    expect(e.message).toMatch(/target 'none' is the text of choices A and C/);
    const mass = mc(0, 0, ['yes', 'no'], [-1, -2], { acc: 0.003135 });
    const f = thrown(() => readFile('samples_truthfulqa_mc2_2024-01-01T00-00-00.jsonl', [mass]));
    expect(f.column).toBe('acc');
    expect(f.message).toMatch(/acc here is 0\.003135, not 0 or 1/);
  });

  it('a tie among the top log-likelihoods is counted, not refused', () => {
    const b = readFile('samples_t_2024-01-01T00-00-00.jsonl', [
      mc(0, 0, ['yes', 'no'], [-1, -2], { acc: 1.0 }),
      // The harness's argmax takes A; the record says B was right: a tie.
      mc(1, 1, ['yes', 'no'], [-1, -1], { acc: 1.0 }),
    ]);
    expect(b.sources[0].producerCheck).toEqual({
      producer: 'the harness',
      metric: 'acc',
      agree: 1,
      total: 2,
      ties: 1,
    });
  });

  it('acc_norm is checked on length-normalised values', () => {
    // Raw: A (-1) beats B (-2), so acc 1. Per character: A -1/1, B -2/4 = -0.5, so B wins: acc_norm 0.
    const good = mc(0, 0, ['a', 'bbbb'], [-1, -2], { acc: 1.0, acc_norm: 0.0 });
    const b = readFile('samples_t_2024-01-01T00-00-00.jsonl', [good]);
    expect(b.sources[0].producerCheck).toMatchObject({ metric: 'acc_norm', agree: 1, total: 1 });
    const bad = mc(0, 0, ['a', 'bbbb'], [-1, -2], { acc: 1.0, acc_norm: 1.0 });
    const e = thrown(() => readFile('samples_t_2024-01-01T00-00-00.jsonl', [bad]));
    expect(e.column).toBe('acc_norm');
    expect(e.message).toMatch(
      /acc_norm on 1 of 1 records; first at line 1: key A with the largest value at B/,
    );
  });
});

describe('harness files that hold no choices', () => {
  const gsm = JSON.stringify({
    doc_id: 0,
    doc: { question: 'A robe takes 2 bolts. How many?', answer: '#### 3' },
    target: '#### 3',
    arguments: {
      gen_args_0: {
        arg_0: 'Question: A robe takes 2 bolts. How many?\nAnswer:',
        arg_1: { until: ['Question:'], do_sample: false, temperature: 0.0 },
      },
    },
    resps: [[' It takes 3 bolts.\n#### 3']],
    filtered_resps: ['3'],
    filter: 'strict-match',
    metrics: ['exact_match'],
    exact_match: 1.0,
  });

  it('a generative run with a numeric answer is skipped with its note; the folder still loads', async () => {
    const ok = mc(0, 0, ['yes', 'no'], [-1, -2], { acc: 1.0 });
    const ds = await loadTexts({
      'm/samples_gsm8k_2024-01-01T00-00-00.jsonl': gsm,
      'm/samples_t_2024-01-01T00-00-00.jsonl': ok,
      // KoBEST run generatively: no arguments, the answer a digit.
      'm/samples_kobest_copa_2024-01-01T00-00-00.jsonl':
        '{"doc_id": 0, "target": "1", "resps": [["1"]], "filtered_resps": ["1"]}',
    });
    expect(ds.I).toBe(1);
    const notes = ds.warnings.map((w) => w.message);
    expect(notes).toContainEqual(expect.stringMatching(/task 'gsm8k' was run generatively .*'3'/));
    expect(notes).toContainEqual(
      expect.stringMatching(/task 'kobest_copa' was run generatively .*'1'/),
    );
  });

  it('a single-continuation task and a generate_until task from the results file are skipped', () => {
    const one = '{"doc_id": 0, "target": " dog", "filtered_resps": [["-2.5", "True"]]}';
    const a = readFile('samples_lambada_2024-01-01T00-00-00.jsonl', [one]);
    expect(a.skipped[0].message).toMatch(/task 'lambada' scores one continuation per record/);
    const ok = mc(0, 0, ['yes', 'no'], [-1, -2], { acc: 1.0 });
    const b = readFile('samples_t_2024-01-01T00-00-00.jsonl', [ok], {
      outputType: 'generate_until',
    });
    expect(b.blocks).toHaveLength(0);
    expect(b.skipped[0].message).toMatch(/output_type 'generate_until' in the run's results file/);
  });

  it('names the older layout (one JSON array per file)', () => {
    const text = `[\n  ${mc(0, 0, ['yes', 'no'], [-1, -2], { acc: 1.0 })}\n]`;
    const e = thrown(() => readFile('pretrained__EleutherAI__pythia-70m_winogrande.jsonl', [text]));
    expect(e.line).toBe(1);
    expect(e.message).toMatch(
      /^pretrained__EleutherAI__pythia-70m_winogrande\.jsonl, line 1: older lm-evaluation-harness layout \(a JSON array /,
    );
  });
});

describe('harness documents', () => {
  it('question text from doc.question, else prompt, sentence, query, ...', () => {
    expect(docQuestion({ doc: { question: 'Q', prompt: 'P' } })).toBe('Q');
    expect(docQuestion({ doc: { question: '', prompt: 'P' } })).toBe('P');
    expect(docQuestion({ doc: { sentence: 'S', query: 'Y' } })).toBe('S');
    expect(docQuestion({ doc: { query: 'Y' } })).toBe('Y');
    expect(docQuestion({ doc: { goal: 'G' } })).toBe('G');
    expect(docQuestion({ doc: {} })).toBe('');
  });

  it('item ids: task, doc_id and a hash of the raw doc, whatever the key order or the prompt', () => {
    const id = `t/3-d${stableHash('{"a":"x","b":[1,{"c":null}]}')}`;
    expect(harnessItemId({ doc_id: 3, doc: { b: [1, { c: null }], a: 'x' } }, 't')).toBe(id);
    expect(
      harnessItemId(
        { doc_id: 3, doc: { a: 'x', b: [1, { c: null }] }, arguments: [['<s>', ' y']] },
        't',
      ),
    ).toBe(id);
    expect(harnessItemId({ doc: { a: 'x', b: [1, { c: null }] } }, 't')).toBe(
      `t/d${stableHash('{"a":"x","b":[1,{"c":null}]}')}`,
    );
    expect(harnessItemId({ doc_id: 3, doc: { id: 'q-7' } }, 't')).toBe('q-7');
  });
});

describe('harness output_type and Parquet', () => {
  it("skips a task the run's results file calls generate_until, reads a multiple_choice one", async () => {
    const results = JSON.stringify({
      results: {},
      configs: { gen: { output_type: 'generate_until' }, t: { output_type: 'multiple_choice' } },
    });
    const ok = mc(0, 0, ['yes', 'no'], [-1, -2], { acc: 1.0 });
    const ds = await loadTexts({
      'm/results_2024-01-01T00-00-00.json': results,
      'm/samples_gen_2024-01-01T00-00-00.jsonl': ok,
      'm/samples_t_2024-01-01T00-00-00.jsonl': ok,
    });
    expect(ds.sources.map((x) => x.file)).toEqual(['m/samples_t_2024-01-01T00-00-00.jsonl']);
    expect(ds.warnings.map((w) => w.message)).toContainEqual(
      expect.stringMatching(/task 'gen' has output_type 'generate_until'/),
    );
  });

  it('Parquet harness details are key-checked on their acc column too', async () => {
    const c = {
      task: 'pq',
      models: ['a'],
      items: [
        { id: 'i0', key: 0, question: 'Q0', options: ['x', 'y'] },
        { id: 'i1', key: 1, question: 'Q1', options: ['x', 'y', 'z'] },
      ],
      // Item i1: key B, but C is the largest, so the harness's acc is 0 there.
      p: [
        [
          [0.7, 0.3],
          [0.2, 0.3, 0.5],
        ],
      ],
    };
    const [f] = harnessParquet(c);
    const ds = await loadDataset([{ name: f.name, blob: new Blob([new Uint8Array(f.bytes!)]) }]);
    expect(ds.sources[0].producerCheck).toEqual({
      producer: 'the harness',
      metric: 'acc',
      agree: 2,
      total: 2,
      ties: 0,
    });
  });
});
