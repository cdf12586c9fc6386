/**
 * Writes an lm-evaluation-harness output root from a wide CSV (tests only): one
 * leaf folder per model at mixed depths, a `samples_<task>_<datetime>.jsonl`
 * per benchmark, records in the harness's `--log_samples` schema.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import Papa from 'papaparse';

/** One wide row: a model's probabilities on an item. */
export interface WideRow {
  model: string;
  item: string;
  benchmark: string;
  key: number;
  probs: number[];
}

/** Rows of a wide CSV with model,item,benchmark,key,n_options,A.. columns. */
export function readWide(text: string): WideRow[] {
  const rows = Papa.parse<Record<string, string>>(text.trim(), { header: true }).data;
  return rows.map((r) => {
    const n = Number(r.n_options);
    const probs = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'].slice(0, n).map((l) => +r[l]);
    return {
      model: r.model,
      item: r.item,
      benchmark: r.benchmark,
      key: 'ABCDEFGHIJ'.indexOf(r.key),
      probs,
    };
  });
}

/** One `--log_samples` record, as lm-evaluation-harness 0.4 writes it. */
export function harnessRecord(
  r: WideRow,
  docId: number,
  filter = 'none',
  probs = r.probs,
): Record<string, unknown> {
  const choices = probs.map((_, k) => `Option ${k} of ${r.item}`);
  const context = `Question: What does ${r.item} ask?\nAnswer:`;
  const ll = probs.map((p) => [String(Math.log(p)), 'False']);
  return {
    doc_id: docId,
    doc: { id: r.item, question: `What does ${r.item} ask?`, choices, answer: r.key },
    target: r.key,
    arguments: Object.fromEntries(
      choices.map((c, k) => [`gen_args_${k}`, { arg_0: context, arg_1: ` ${c}` }]),
    ),
    resps: ll.map((x) => [x]),
    filtered_resps: ll,
    filter,
    metrics: ['acc'],
    doc_hash: `h${docId}`,
    prompt_hash: `p${docId}`,
    target_hash: `t${docId}`,
    acc: probs.indexOf(Math.max(...probs)) === r.key ? 1.0 : 0.0,
  };
}

const STAMP = '2025-03-04T05-06-07.891011';
const OLDER = '2024-12-01T00-00-00.000001';

/**
 * Writes the root under `dir` and returns it. Model m's folder is
 * `<org>__<name>` two levels down for even m (its name in `results_*.json`
 * `model_name`), the plain name one level down for odd m. Model 0 has an older
 * run (uniform values, to be ignored) and a second filter; model 1's logs are
 * gzipped; model 2's use CRLF line ends.
 */
export function writeHarnessRoot(dir: string, rows: WideRow[]): string {
  const byModel = new Map<string, WideRow[]>();
  for (const r of rows) {
    if (!byModel.has(r.model)) byModel.set(r.model, []);
    byModel.get(r.model)!.push(r);
  }
  [...byModel].forEach(([model, mine], m) => {
    const folder =
      m % 2 === 0 ? path.join(dir, 'batch-a', `org${m}__${model}`) : path.join(dir, model);
    mkdirSync(folder, { recursive: true });
    if (m % 2 === 0)
      writeFileSync(
        path.join(folder, `results_${STAMP}.json`),
        JSON.stringify({ results: {}, model_name: model, group_subtasks: {} }, null, 2),
      );
    const tasks = [...new Set(mine.map((r) => r.benchmark))];
    for (const task of tasks) {
      const items = mine.filter((r) => r.benchmark === task);
      const nl = m === 2 ? '\r\n' : '\n';
      let lines = items.map((r, n) => JSON.stringify(harnessRecord(r, n)));
      if (m === 0) {
        lines = lines.concat(
          items.map((r, n) => JSON.stringify(harnessRecord(r, n, 'strict-match'))),
        );
        const uniform = items.map((r, n) =>
          JSON.stringify(
            harnessRecord(
              r,
              n,
              'none',
              r.probs.map(() => 1 / r.probs.length),
            ),
          ),
        );
        writeFileSync(
          path.join(folder, `samples_${task}_${OLDER}.jsonl`),
          uniform.join('\n') + '\n',
        );
      }
      const text = lines.join(nl) + nl;
      const name = path.join(folder, `samples_${task}_${STAMP}.jsonl`);
      if (m === 1) writeFileSync(`${name}.gz`, gzipSync(text));
      else writeFileSync(name, text);
    }
  });
  return dir;
}
