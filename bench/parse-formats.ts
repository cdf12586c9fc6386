/**
 * Node parse throughput of the result-format readers (issue 13), next to the
 * wide CSV: each format's files are written at full size (bench/browser/formats.ts)
 * into a temporary folder and read back with `loadDatasetFromPaths` on the
 * folder, as `llm-nrm fit out/` does. The browser figures (the app's worker) are
 * the `formats` phase of `bench/browser/run.ts`.
 *
 *   npx tsx bench/parse-formats.ts [--shape 189x5000] [--mb 100] [--formats a,b] [--seed 2026]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadDatasetFromPaths } from '../src/node/files';
import { writeWideCsv } from '../src/core/data/write';
import { simulateNominal } from '../src/core/model/simulate';
import { parseShape } from './shape';
import { benchCells, FORMAT_IDS, writeFormat, type FormatId } from './browser/formats';

const { values } = parseArgs({
  options: {
    shape: { type: 'string', default: '189x5000' },
    mb: { type: 'string', default: '100' },
    formats: { type: 'string', default: FORMAT_IDS.join(',') },
    seed: { type: 'string', default: '2026' },
  },
});
const { J, I } = parseShape(values.shape);
const seed = Number(values.seed);
const target = Number(values.mb) * 1e6;
const ids = values.formats.split(',').filter(Boolean) as FormatId[];
for (const id of ids) if (!FORMAT_IDS.includes(id)) throw new Error(`unknown format ${id}`);

const root = mkdtempSync(path.join(os.tmpdir(), 'llm-nrm-parse-'));
const rows: string[] = [];
const row = (label: string, shape: string, bytes: number, s: number) => {
  const mbs = bytes / 1e6 / s;
  rows.push(
    `| ${label} | ${shape} | ${(bytes / 1e6).toFixed(0)} MB | ${s.toFixed(2)} s | ${mbs.toFixed(0)} |`,
  );
  console.log(
    `${label}: ${(bytes / 1e6).toFixed(0)} MB in ${s.toFixed(2)} s = ${mbs.toFixed(1)} MB/s`,
  );
};
try {
  {
    const { data } = simulateNominal({ J, I, seed, concentration: 50 });
    const file = path.join(root, 'bench.wide.csv');
    const text = writeWideCsv(data);
    writeFileSync(file, text);
    const t = performance.now();
    const ds = await loadDatasetFromPaths([file]);
    row('wide CSV', `${ds.J} × ${ds.I}`, Buffer.byteLength(text), (performance.now() - t) / 1000);
    rmSync(file);
  }
  const cells = benchCells(J, I, seed);
  for (const id of ids) {
    const set = writeFormat(root, id, cells, target);
    console.log(`${id}: wrote ${set.files.length} files in ${set.writeSeconds.toFixed(1)} s`);
    const t = performance.now();
    const ds = await loadDatasetFromPaths([path.join(root, id)]);
    const s = (performance.now() - t) / 1000;
    if (ds.J !== set.J || ds.I !== set.I)
      throw new Error(`${id}: read ${ds.J} × ${ds.I}, wrote ${set.J} × ${set.I}`);
    row(set.label, `${set.J} × ${set.I}`, set.bytes, s);
    rmSync(path.join(root, id), { recursive: true, force: true });
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
console.log(
  ['', '| format | LLMs × items | size | time | MB/s |', '|---|---|---|---|---|', ...rows].join(
    '\n',
  ),
);
