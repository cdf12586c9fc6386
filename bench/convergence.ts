/**
 * Does the default fit converge? Fits every demo file and a simulated
 * 189 × 5,000 set with the default settings and prints, for each, whether it
 * converged, why it stopped, the gradient norm, steps, passes (prior-strength
 * search included) and time. Run: npx tsx bench/convergence.ts [--skip-big]
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createNodeParallelEngine } from '../src/node/parallel';
import { createFusedEngine } from '../src/core/engines/fused';
import { loadDatasetFromPaths } from '../src/node/files';
import type { Dataset } from '../src/core/data/types';
import { fitDataset, type EngineHandle } from '../src/core/fit/fit';
import { simulateNominal } from '../src/core/model/simulate';

const demo = path.resolve(fileURLToPath(new URL('../public/demo/', import.meta.url)));
const threads = Math.min(8, os.availableParallelism());
const engine: EngineHandle = {
  name: 'fused',
  reason: `fused, ${threads} threads`,
  create: async (p) =>
    threads > 1 && p.cells.n > 50_000 ? createNodeParallelEngine(p, threads) : createFusedEngine(p),
};

async function report(name: string, ds: Dataset) {
  const fit = await fitDataset(ds, { model: 'llmnrm' }, { engine });
  const sel = fit.priorSelection;
  console.log(
    [
      name.padEnd(34),
      `${ds.J}×${ds.I}`.padEnd(10),
      `converged ${fit.converged}`.padEnd(16),
      `stop ${fit.stopReason}`.padEnd(15),
      `|g| ${fit.gradNorm?.toExponential(2)}`.padEnd(14),
      `steps ${fit.steps}`.padEnd(11),
      `passes ${fit.passes}+${sel?.passes ?? 0}`.padEnd(16),
      `λ ${sel?.lambda ?? fit.settings.priorStrength}`.padEnd(6),
      `${fit.seconds.toFixed(1)} s`,
    ].join(' '),
  );
}

const files: [string, string[]][] = [
  ['econ-reading.wide.csv', ['econ-reading.wide.csv']],
  [
    'econ-reading.long-logprob + items',
    ['econ-reading.long-logprob.csv', 'econ-reading.items.csv'],
  ],
  ['econ-reading-4orders.wide.csv', ['econ-reading-4orders.wide.csv']],
];
for (const [name, parts] of files)
  await report(name, await loadDatasetFromPaths(parts.map((p) => path.join(demo, p))));
if (!process.argv.includes('--skip-big'))
  await report(
    'simulated LLM-NRM (seed 1)',
    simulateNominal({ J: 189, I: 5000, seed: 1, missing: 0.02, concentration: 100 }).data,
  );
