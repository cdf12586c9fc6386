/**
 * Full-size files of the evaluation tools' result formats for the parse
 * benchmarks (browser worker and Node), written by the builders the unit tests
 * use (test/support/data/results.ts, harnessFiles.ts), so each file has
 * the tool's own schema. The cells are simulated at --shape; whole models are
 * written until a format's files reach the target size.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cellsOf, harnessJsonl, harnessParquet } from '../../test/support/data/harnessFiles';
import {
  helmState,
  inspectEval,
  lightevalParquet,
  metaParquet,
  openCompassPpl,
  type AnyFile,
  type Cells,
} from '../../test/support/data/results';
import { simulateNominal } from '../../src/core/model/simulate';

const L = 'ABCDEFGHIJ';

/** Wide CSV (`model,item,benchmark,key,n_options,A..`, a row per cell, empty past n_options). */
function wideCsv(c: Cells): AnyFile[] {
  const K = Math.max(...c.items.map((it) => it.options.length));
  const rows = [['model', 'item', 'benchmark', 'key', 'n_options', ...L.slice(0, K)].join(',')];
  c.models.forEach((m, j) =>
    c.items.forEach((it, i) => {
      const p = c.p[j][i];
      const vals = Array.from({ length: K }, (_, k) => (k < p.length ? p[k] : ''));
      rows.push([m, it.id, c.task, L[it.key], p.length, ...vals].join(','));
    }),
  );
  return [{ name: 'wide.csv', text: rows.join('\n') + '\n' }];
}

/** Long CSV (`model,item,option,prob`, a row per option) and its items file. */
function longCsv(c: Cells): AnyFile[] {
  const rows = ['model,item,option,prob'];
  c.models.forEach((m, j) =>
    c.items.forEach((it, i) =>
      c.p[j][i].forEach((p, k) => rows.push(`${m},${it.id},${L[k]},${p}`)),
    ),
  );
  const items = [
    'item,benchmark,key,n_options',
    ...c.items.map((it) => `${it.id},${c.task},${L[it.key]},${it.options.length}`),
  ];
  return [
    { name: 'long.csv', text: rows.join('\n') + '\n' },
    { name: 'items.csv', text: items.join('\n') + '\n' },
  ];
}

/**
 * The formats timed, in the order they are reported. `whole`: one set of files
 * for all the models written (the CSVs), not files per model.
 */
export const FORMATS = {
  'wide-csv': {
    label: 'wide CSV (a row per LLM and item)',
    write: wideCsv,
    whole: true,
    // One file through Playwright's route: a 96 MB one closed the page (the 101 MB
    // wide CSV of the parse phase is written in the worker instead).
    maxMb: 60,
  },
  'long-csv': {
    label: 'long CSV (a row per option) + items CSV',
    write: longCsv,
    whole: true,
    maxMb: 60,
  },
  'harness-jsonl': {
    label: 'lm-evaluation-harness samples (.jsonl)',
    write: harnessJsonl,
  },
  'harness-parquet': {
    label: 'lm-evaluation-harness samples (Parquet, nested columns)',
    write: harnessParquet,
  },
  'lighteval-parquet': {
    label: 'lighteval 0.7 details (Parquet, Python-literal strings)',
    write: lightevalParquet,
  },
  'meta-parquet': { label: 'Meta eval details (Parquet)', write: metaParquet },
  'inspect-eval': {
    label: 'Inspect .eval (ZIP, DEFLATE)',
    write: (c: Cells) => inspectEval(c, 8),
    // The test ZIP builder goes through number arrays: minutes for 100 MB.
    maxMb: 25,
  },
  helm: { label: 'HELM scenario_state.json (separate adapter)', write: helmState },
  opencompass: { label: 'OpenCompass PPL predictions (.json)', write: openCompassPpl },
} satisfies Record<
  string,
  { label: string; write: (c: Cells) => AnyFile[]; maxMb?: number; whole?: boolean }
>;

export type FormatId = keyof typeof FORMATS;
export const FORMAT_IDS = Object.keys(FORMATS) as FormatId[];

/** One format's files on disk, relative to `root` (names keep the model folders). */
export interface FormatSet {
  id: FormatId;
  label: string;
  /** Models written (all items each). */
  J: number;
  I: number;
  bytes: number;
  /** Paths relative to `root`, with '/' separators: also the loader's file names. */
  files: string[];
  writeSeconds: number;
  /** Reading the folder in Node as the CLI does (`loadDatasetFromPaths`), once, when timed. */
  nodeSeconds?: number;
}

/** The simulated cells every format is written from. */
export function benchCells(J: number, I: number, seed: number): Cells {
  return cellsOf(simulateNominal({ J, I, seed, concentration: 50 }).data, 'bench');
}

const size = (f: AnyFile) => f.bytes?.length ?? Buffer.byteLength(f.text!, 'utf8');

/** One model's cells. */
const oneModel = (c: Cells, j: number): Cells => ({ ...c, models: [c.models[j]], p: [c.p[j]] });

/**
 * Writes format `id` under `root/id/`: whole models until `targetBytes` (or the
 * format's `maxMb`, or all of them), each model's files as the tool names them
 * (a `whole` format: one set of files for the models that reach the target).
 */
export function writeFormat(root: string, id: FormatId, c: Cells, targetBytes: number): FormatSet {
  const t0 = performance.now();
  const spec = FORMATS[id];
  const target = Math.min(targetBytes, ('maxMb' in spec ? spec.maxMb : Infinity) * 1e6);
  const files: string[] = [];
  let bytes = 0;
  let J = 0;
  if ('whole' in spec) {
    // As many models as reach the target, from the size of one model's files.
    const one = spec.write(oneModel(c, 0)).reduce((t, f) => t + size(f), 0);
    J = Math.min(c.models.length, Math.max(1, Math.ceil(target / one)));
    for (const f of spec.write({ ...c, models: c.models.slice(0, J), p: c.p.slice(0, J) })) {
      const rel = `${id}/${f.name}`;
      mkdirSync(path.join(root, id), { recursive: true });
      writeFileSync(path.join(root, rel), f.bytes ?? f.text!);
      files.push(rel);
      bytes += size(f);
    }
  }
  for (let j = 0; j < c.models.length && bytes < target && !('whole' in spec); j++, J++) {
    const model = c.models[j];
    for (const f of FORMATS[id].write(oneModel(c, j))) {
      const data = f.bytes ?? Buffer.from(f.text!, 'utf8');
      // Inspect logs are named by run, not model: one folder per model keeps them apart.
      const rel = f.name.includes(model) ? `${id}/${f.name}` : `${id}/${model}/${f.name}`;
      const file = path.join(root, rel);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, data);
      files.push(rel);
      bytes += data.length;
    }
  }
  return {
    id,
    label: FORMATS[id].label,
    J,
    I: c.items.length,
    bytes,
    files,
    writeSeconds: (performance.now() - t0) / 1000,
  };
}
