import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadDataset } from './load.ts';
import { harnessRecord, type WideRow } from '../../../test/support/data/harnessRoot.ts';
import { cell, expectDataError, loadTexts } from '../../../test/support/data/utils.ts';

const row = (item: string, probs: number[], key = 0, benchmark = 't'): WideRow => ({
  model: 'm',
  item,
  benchmark,
  key,
  probs,
});
const jsonl = (recs: unknown[], nl = '\n') => recs.map((r) => JSON.stringify(r)).join(nl) + nl;
const softmax = (xs: number[]) => {
  const e = xs.map(Math.exp);
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
};

describe('harness output roots (issue 13)', () => {
  const a = row('item-a', [0.5, 0.3, 0.2]);
  const b = row('item-b', [0.1, 0.9], 1);

  it('names items by doc.id, whatever their doc_id, and shows doc.choices as option texts', async () => {
    const ds = await loadTexts({
      'x/m1/samples_t_2025-01-01T00-00-00.jsonl': jsonl([harnessRecord(a, 0), harnessRecord(b, 1)]),
      'x/m2/samples_t_2025-01-01T00-00-00.jsonl': jsonl([harnessRecord(b, 0), harnessRecord(a, 1)]),
    });
    expect(ds.itemIds).toEqual(['item-a', 'item-b']);
    expect(cell(ds, 'm2', 'item-a').map((x) => +x.toFixed(6))).toEqual([0.5, 0.3, 0.2]);
    expect(ds.itemTexts?.[0]?.options).toEqual([
      'Option 0 of item-a',
      'Option 1 of item-a',
      'Option 2 of item-a',
    ]);
  });

  it('reads .jsonl.gz through DecompressionStream, and the latest run only', async () => {
    const gz = gzipSync(jsonl([harnessRecord(a, 0)]));
    const old = jsonl([harnessRecord(a, 0, 'none', [0.2, 0.2, 0.6])]);
    const ds = await loadDataset([
      { name: 'out/m/samples_t_2025-02-01T00-00-00.1.jsonl.gz', blob: new Blob([gz]) },
      { name: 'out/m/samples_t_2024-02-01T00-00-00.1.jsonl', text: old },
    ]);
    expect(cell(ds, 'm', 'item-a').map((x) => +x.toFixed(6))).toEqual([0.5, 0.3, 0.2]);
    const note = ds.warnings.find((w) => /older run/.test(w.message));
    expect(note?.file).toBe('out/m/samples_t_2024-02-01T00-00-00.1.jsonl');
  });

  it('length-normalises when the task reports acc_norm, and says so', async () => {
    const rec = { ...harnessRecord(a, 0), metrics: ['acc', 'acc_norm'], acc_norm: 1 };
    const ds = await loadTexts({ 'm/samples_arc_easy_2025-01-01T00-00-00.jsonl': jsonl([rec]) });
    const len = 'Option 0 of item-a'.length;
    expect(cell(ds, 'm', 'item-a')[0]).toBeCloseTo(
      softmax([0.5, 0.3, 0.2].map((p) => Math.log(p) / len))[0],
      6,
    );
    expect(ds.sources[0].valueKindReason).toMatch(/acc_norm/);
    const off = await loadTexts(
      { 'm/samples_arc_easy_2025-01-01T00-00-00.jsonl': jsonl([rec]) },
      { lengthNormalise: false },
    );
    expect(cell(off, 'm', 'item-a')[0]).toBeCloseTo(0.5, 6);
  });

  it('groups subtasks into their benchmark and keeps the subtask per item', async () => {
    const ds = await loadTexts({
      'm/samples_mmlu_anatomy_2025-01-01T00-00-00.jsonl': jsonl([harnessRecord(a, 0)]),
      'm/samples_mmlu_virology_2025-01-01T00-00-00.jsonl': jsonl([harnessRecord(b, 0)]),
      'm/samples_hellaswag_2025-01-01T00-00-00.jsonl': jsonl([
        harnessRecord(row('item-c', [0.6, 0.4]), 0),
      ]),
    });
    expect(ds.benchmarks).toEqual(['mmlu', 'mmlu', 'hellaswag']);
    expect(ds.subtasks).toEqual(['mmlu_anatomy', 'mmlu_virology', '']);
  });

  it('takes groups and the model name from results_*.json', async () => {
    const results = {
      model_name: 'org/model-x',
      group_subtasks: { suite: ['suite_part'], suite_part: ['my_task'], my_task: [] },
    };
    const ds = await loadTexts({
      'out/org__model-x/results_2025-01-01T00-00-00.json': JSON.stringify(results),
      'out/org__model-x/samples_my_task_2025-01-01T00-00-00.jsonl': jsonl([harnessRecord(a, 0)]),
    });
    expect(ds.llmIds).toEqual(['org/model-x']);
    expect(ds.benchmarks).toEqual(['suite']);
    expect(ds.subtasks).toEqual(['my_task']);
  });

  it('explains a generative run in one sentence', async () => {
    const gen = { doc_id: 0, doc: { id: 'g' }, target: 'B', resps: [['B']], filtered_resps: ['B'] };
    const name = 'm/samples_gsm_2025-01-01T00-00-00.jsonl';
    await expectDataError(loadTexts({ [name]: jsonl([gen]) }), {
      file: name,
      line: 1,
      message:
        /run generatively \(the model wrote its answer, 'B', instead of scoring each choice\)/,
    });
    const ds = await loadTexts({
      [name]: jsonl([gen]),
      'm/samples_t_2025-01-01T00-00-00.jsonl': jsonl([harnessRecord(a, 0)]),
    });
    expect(ds.I).toBe(1);
    expect(ds.warnings.some((w) => w.file === name && /generatively/.test(w.message))).toBe(true);
  });
});

describe('text before parsing (issue 13)', () => {
  it('refuses a PNG renamed .csv as not a text file', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    await expectDataError(loadDataset([{ name: 'data.csv', blob: new Blob([png]) }]), {
      file: 'data.csv',
      message: /this is not a text file: it looks like a PNG image/,
    });
    const bin = new Uint8Array(64).map((_, k) => (k * 37) % 256);
    await expectDataError(loadDataset([{ name: 'x.csv', blob: new Blob([bin]) }]), {
      message: /not a text file/,
    });
  });

  it('reads a CSV with mixed CRLF and LF line ends, across chunk boundaries', async () => {
    const text =
      'model,item,key,A,B\r\nm1,i1,A,0.6,0.4\nm1,i2,B,0.3,0.7\r\nm2,i1,A,0.5,0.5\r\nm2,i2,B,0.2,0.8\n';
    for (const chunkSize of [3, 17, 1000]) {
      const ds = await loadDataset([{ name: 'w.csv', text }], { chunkSize });
      expect(ds.J).toBe(2);
      expect(cell(ds, 'm2', 'i2')).toEqual([Math.fround(0.2), Math.fround(0.8)]);
    }
    const bad = 'model,item,key,A,B\r\nm1,i1,A,0.6,0.4\nm1,i2,B,0.3\r\n';
    await expectDataError(loadDataset([{ name: 'w.csv', text: bad }]), {
      line: 3,
      message: /row has 4 fields but the header has 5/,
    });
  });
});
