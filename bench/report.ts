/**
 * npx tsx bench/report.ts [--shape 189x5000] [--steps 100] [--out report.html]
 *
 * The benchmark audit report at scale: simulates LLM-NRM data (simulate.ts,
 * the paper's option-count mix, seed 1), fits the default model with a step
 * cap at λ = 1 (no λ search: the report's cost, not the fit's, is measured
 * here; a capped fit is reported as not converged), then times buildReport
 * and prints the report's size. Issue 30's goal at 189 × 5,000: under 30 s
 * and under 10 MB.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { cliEngine } from '../src/cli/fit';
import { fitDataset } from '../src/core/fit/fit';
import { DEFAULT_SETTINGS } from '../src/core/fit/types';
import { simulateNominal } from '../src/core/model/simulate';
import { buildReport } from '../src/report/build';
import { parseShape } from './shape';

const { values } = parseArgs({
  options: {
    shape: { type: 'string', default: '189x5000' },
    steps: { type: 'string', default: '100' },
    out: { type: 'string' },
  },
});
const { J, I } = parseShape(values.shape);
const t0 = performance.now();
const { data } = simulateNominal({ J, I, seed: 1 });
const sec = (t: number) => ((performance.now() - t) / 1000).toFixed(1);
console.log(`simulated ${J} × ${I} (Kmax ${data.Kmax}) in ${sec(t0)} s`);
const t1 = performance.now();
const fit = await fitDataset(
  data,
  { ...DEFAULT_SETTINGS, steps: Number(values.steps), priorStrength: 1 },
  { engine: cliEngine('auto') },
);
console.log(`fitted (${fit.steps} steps, ${fit.stopReason}) in ${sec(t1)} s`);
const t2 = performance.now();
const html = await buildReport(
  { ds: data, fit },
  {
    date: new Date().toISOString(),
    onProgress: (p) => {
      const now = performance.now();
      console.log(`  ${p.stage.padEnd(22)} starts at ${((now - t2) / 1000).toFixed(1)} s`);
    },
  },
);
const bytes = Buffer.byteLength(html);
console.log(`report: ${(bytes / 2 ** 20).toFixed(2)} MiB (${bytes} bytes) in ${sec(t2)} s`);
if (values.out) writeFileSync(values.out, html);
