/**
 * Writes the eRm cross-check fixture (src/core/psych/fixtures/erm-itemfit.json):
 * a simulated 1PL 0/1 matrix and eRm's infit/outfit for it. Needs R with eRm
 * (apt-get install -y r-base-core r-cran-erm); the test reads only the fixture.
 *   npx tsx scripts/erm-fixture.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simulateBinary } from '../src/core/psych/simulate';

const J = 200;
const I = 20;
const { data } = simulateBinary({ J, I, seed: 11, misfit: [4, 13] });
const X: number[][] = [];
for (let j = 0; j < J; j++) {
  const row = Array.from({ length: I }, (_, i) =>
    data.obs[(j * I + i) * 4 + data.key[i]] > 0 ? 1 : 0,
  );
  const s = row.reduce((a, b) => a + b, 0);
  if (s > 0 && s < I) X.push(row); // eRm drops extreme scores from item fit; keep them out of both
}
const dir = mkdtempSync(path.join(os.tmpdir(), 'erm-'));
const mat = path.join(dir, 'matrix.csv');
writeFileSync(mat, [data.itemIds.join(','), ...X.map((r) => r.join(','))].join('\n') + '\n');
const out = path.join(dir, 'erm.csv');
const log = execFileSync('Rscript', [path.join(import.meta.dirname, 'erm-itemfit.R'), mat, out], {
  encoding: 'utf8',
});
const lines = readFileSync(out, 'utf8').trim().split('\n').slice(1);
const erm = lines.map((l) => {
  const [item, infit, outfit, zi, zo] = l.split(',');
  return {
    item: item.replace(/"/g, ''),
    infit: Number(infit),
    outfit: Number(outfit),
    z_infit: Number(zi),
    z_outfit: Number(zo),
  };
});
const target = path.join(import.meta.dirname, '../src/core/psych/fixtures/erm-itemfit.json');
writeFileSync(
  target,
  JSON.stringify(
    { source: log.trim(), items: data.itemIds, matrix: X.map((r) => r.join('')), erm },
    null,
    1,
  ) + '\n',
);
console.log(`wrote ${target}: ${X.length} persons × ${I} items`);
