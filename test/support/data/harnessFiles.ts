/**
 * The same `Cells` as `results.ts`, written as lm-evaluation-harness
 * samples (tests and benchmarks only): `--log_samples` JSONL, one folder per
 * model, and the same records as Parquet with the nested columns of the
 * harness details the Open LLM Leaderboard publishes (`doc` a struct,
 * `arguments` a struct of `gen_args_k` structs, `resps`/`filtered_resps` lists).
 * Also `cellsOf` (a simulated data set as Cells) and `wideCsvLike` (the wide
 * CSV reference in the ids a reader gave the same cells).
 */
import { parquetWriteBuffer } from 'hyparquet-writer';
import type { Dataset } from '../../../src/core/data/types.ts';
import type { AnyFile, Cells } from './results.ts';

const L = 'ABCDEFGHIJ';
const STAMP = '2024-05-06T07-08-09.123456';

/**
 * A simulated data set as Cells: every option above 1e-6 (log-likelihoods stay
 * finite), 9 significant digits, option texts of different lengths.
 */
export function cellsOf(ds: Dataset, task = 'naep'): Cells {
  const words = ['red', 'blue green', 'a long answer', 'four'];
  return {
    task,
    models: ds.llmIds.map((_, j) => `llm-${j}`),
    items: ds.itemIds.map((_, i) => ({
      id: `q${i}`,
      key: ds.key[i],
      question: `Question ${i}: which is it?`,
      options: Array.from({ length: ds.nOptions[i] }, (_, k) => `${words[k % 4]} ${i}`),
    })),
    p: ds.llmIds.map((_, j) =>
      ds.itemIds.map((_, i) => {
        const off = (j * ds.I + i) * ds.Kmax;
        const raw = Array.from(ds.obs.subarray(off, off + ds.nOptions[i]), (x) =>
          Math.max(x, 1e-6),
        );
        const s = raw.reduce((a, b) => a + b, 0);
        return raw.map((x) => Number((x / s).toPrecision(9)));
      }),
    ),
  };
}

/** One `--log_samples` record of model j on item i (log-likelihood tasks, filter "none"). */
export function harnessRecord(c: Cells, j: number, i: number): Record<string, unknown> {
  const it = c.items[i];
  const p = c.p[j][i];
  const best = p.indexOf(Math.max(...p));
  const prompt = `Question: ${it.question}\nAnswer:`;
  return {
    doc_id: i,
    doc: { id: it.id, question: it.question, choices: it.options, answerKey: L[it.key] },
    target: it.key,
    arguments: Object.fromEntries(
      it.options.map((o, k) => [`gen_args_${k}`, { arg_0: prompt, arg_1: ` ${o}` }]),
    ),
    resps: p.map((v, k) => [[String(Math.log(v)), k === best ? 'True' : 'False']]),
    filtered_resps: p.map((v, k) => [String(Math.log(v)), k === best ? 'True' : 'False']),
    filter: 'none',
    metrics: ['acc'],
    doc_hash: `d${i}`,
    prompt_hash: `p${i}`,
    target_hash: `t${it.key}`,
    acc: best === it.key ? 1 : 0,
  };
}

/** `<model>/samples_<task>_<datetime>.jsonl`, one per model. */
export function harnessJsonl(c: Cells): AnyFile[] {
  return c.models.map((m, j) => ({
    name: `${m}/samples_${c.task}_${STAMP}.jsonl`,
    text: c.items.map((_, i) => JSON.stringify(harnessRecord(c, j, i))).join('\n') + '\n',
  }));
}

/** A Parquet schema element, as the writer's own hyparquet types it. */
type El = NonNullable<Parameters<typeof parquetWriteBuffer>[0]['schema']>[number];
const str = (name: string): El => ({
  name,
  type: 'BYTE_ARRAY',
  converted_type: 'UTF8',
  repetition_type: 'OPTIONAL',
});
const group = (name: string, children: El[][]): El[] => [
  { name, repetition_type: 'OPTIONAL', num_children: children.length },
  ...children.flat(),
];
/** A three-level LIST of `element` (the layout pyarrow writes). */
const list = (name: string, element: El[]): El[] => [
  { name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  { ...element[0], name: 'element' },
  ...element.slice(1),
];

/**
 * The same records as Parquet, `<model>/samples_<task>_<datetime>.parquet`: the
 * schema of the harness details published as Parquet (nested, not JSON text).
 */
export function harnessParquet(c: Cells): AnyFile[] {
  const Kmax = Math.max(...c.items.map((it) => it.options.length));
  const gen = Array.from({ length: Kmax }, (_, k) =>
    group(`gen_args_${k}`, [[str('arg_0')], [str('arg_1')]]),
  );
  const pairList = (name: string) => list(name, [str('x')]);
  const schema: El[] = [
    { name: 'schema', num_children: 12 },
    { name: 'doc_id', type: 'INT64', repetition_type: 'OPTIONAL' },
    ...group('doc', [
      [str('id')],
      [str('question')],
      list('choices', [str('x')]),
      [str('answerKey')],
    ]),
    { name: 'target', type: 'INT64', repetition_type: 'OPTIONAL' },
    ...group('arguments', gen),
    ...list('resps', list('x', pairList('x'))),
    ...list('filtered_resps', pairList('x')),
    str('filter'),
    ...list('metrics', [str('x')]),
    str('doc_hash'),
    str('prompt_hash'),
    str('target_hash'),
    { name: 'acc', type: 'DOUBLE', repetition_type: 'OPTIONAL' },
  ];
  return c.models.map((m, j) => {
    const recs = c.items.map((_, i) => harnessRecord(c, j, i));
    const col = (name: string, f: (r: Record<string, unknown>) => unknown = (r) => r[name]) => ({
      name,
      data: recs.map(f),
    });
    const columnData = [
      col('doc_id', (r) => BigInt(r.doc_id as number)),
      col('doc'),
      col('target', (r) => BigInt(r.target as number)),
      col('arguments', (r) => {
        const a = r.arguments as Record<string, unknown>;
        return Object.fromEntries(gen.map((g) => [g[0].name, a[g[0].name] ?? null]));
      }),
      col('resps'),
      col('filtered_resps'),
      col('filter'),
      col('metrics'),
      col('doc_hash'),
      col('prompt_hash'),
      col('target_hash'),
      col('acc'),
    ];
    const buf = parquetWriteBuffer({
      columnData,
      schema,
    });
    return { name: `${m}/samples_${c.task}_${STAMP}.parquet`, bytes: new Uint8Array(buf) };
  });
}

/**
 * The wide CSV of the same cells, in the model and item ids (and order) that a
 * reader gave them in `ds`; items are matched by question text
 * (else by position). A fit of this
 * file and of the reader's data then shares the held-out split, so the prior
 * strength chosen and the objective must agree.
 */
export function wideCsvLike(c: Cells, ds: Dataset): string {
  const byQuestion = new Map(c.items.map((it, i) => [it.question, i]));
  const K = Math.max(...c.items.map((it) => it.options.length));
  const q = (s: string) => (/[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  const rows = [['model', 'item', 'benchmark', 'key', 'n_options', ...L.slice(0, K)].join(',')];
  ds.llmIds.forEach((model, j) => {
    const cj = c.models.indexOf(model);
    if (cj < 0) throw new Error(`wideCsvLike: model ${model} is not one of the cells'`);
    ds.itemIds.forEach((id, i) => {
      if (!ds.observed[j * ds.I + i]) return;
      // Without question texts (OpenCompass), items keep the cells' order.
      const ci =
        byQuestion.get(ds.itemTexts?.[i]?.question ?? '') ??
        (ds.I === c.items.length ? i : undefined);
      if (ci === undefined) throw new Error(`wideCsvLike: item ${id} has no question of the cells`);
      const it = c.items[ci];
      rows.push(
        [q(model), q(id), q(ds.benchmarks[i]), L[it.key], it.options.length, ...c.p[cj][ci]].join(
          ',',
        ),
      );
    });
  });
  return rows.join('\n') + '\n';
}
