/**
 * Passes to the same objective, before and after, in one run:
 *   npx tsx bench/passes.ts [--sets naep,naep4,60x1000,189x2000,naep@2000] [--before '{"warmup":300,"memory":10}']
 *
 * Fits each data set with the default settings twice: once as the fast
 * optimiser was before issue 15 (300 Adam warm-up steps, L-BFGS memory 10:
 * `--before`, as FitSettings) and once with today's defaults. Prints, for each,
 * passes of the final fit + the λ search, wall time, the objective and its
 * relative difference, converged / stop reason, the chosen λ and its held-out
 * cross-entropy per cell. Data: the demo files (18 real LLMs × 345 NAEP items,
 * and the same items in 4 option orders) and simulated LLM-NRM sets (seed 1,
 * 2% missing, Dirichlet concentration 100, as bench/convergence.ts). A set
 * named `naep@2000` caps the prior-strength search at 2,000 cells, so it runs
 * on a share of the items and the final fit starts from the share's end point,
 * as above 200,000 cells (strength.ts SEARCH_MAX_CELLS).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadDatasetFromPaths } from '../src/node/files';
import type { Dataset } from '../src/core/data/types';
import { fitDataset } from '../src/core/fit/fit';
import type { FitJson, FitSettings } from '../src/core/fit/types';
import { simulateNominal } from '../src/core/model/simulate';
import { parseShape } from './shape';

export const BEFORE_ISSUE_15: Partial<FitSettings> = { warmup: 300, memory: 10 };

const demo = path.resolve(fileURLToPath(new URL('../public/demo/', import.meta.url)));

async function dataset(name: string): Promise<Dataset> {
  if (name === 'naep') return loadDatasetFromPaths([path.join(demo, 'econ-reading.wide.csv')]);
  if (name === 'naep4')
    return loadDatasetFromPaths(
      ['econ-reading-4orders.items.csv', 'econ-reading-4orders.wide.csv'].map((f) =>
        path.join(demo, f),
      ),
    );
  const { J, I } = parseShape(name);
  return simulateNominal({ J, I, seed: 1, missing: 0.02, concentration: 100 }).data;
}

export interface PassRow {
  set: string;
  which: 'before' | 'after';
  fit: FitJson;
}

/** One line per fit; the "after" line adds the ratios and the objective's relative difference. */
export function passLine(r: PassRow, before?: FitJson): string {
  const f = r.fit;
  const sel = f.priorSelection;
  const total = f.passes + (sel?.passes ?? 0);
  const held = sel?.trials.find((t) => t.lambda === sel.lambda)?.heldOutLoss;
  const cmp = before
    ? ` | ${(total / (before.passes + (before.priorSelection?.passes ?? 0))).toFixed(2)}× passes, ${(f.seconds / before.seconds).toFixed(2)}× time, objective rel. diff. ${((f.objective - before.objective) / Math.abs(before.objective)).toExponential(1)}`
    : '';
  return (
    `${r.set.padEnd(11)} ${r.which.padEnd(6)} passes ${String(f.passes).padStart(5)} + ${String(sel?.passes ?? 0).padStart(5)} λ-search = ${String(total).padStart(5)}` +
    `  ${f.seconds.toFixed(1).padStart(6)} s  objective ${f.objective.toFixed(6)}  ${f.converged ? 'converged' : 'NOT converged'} (${f.stopReason}, |g| ${f.gradNorm?.toExponential(1)})` +
    `  λ ${sel?.lambda ?? f.settings.priorStrength} held-out CE ${held?.toFixed(6) ?? '—'}${cmp}`
  );
}

/** Fits `sets` before and after; returns the rows (and prints each as it comes). */
export async function comparePasses(
  sets: string[],
  before: Partial<FitSettings> = BEFORE_ISSUE_15,
): Promise<PassRow[]> {
  const rows: PassRow[] = [];
  for (const set of sets) {
    // `name@cells`: the prior-strength search's cell cap forced down to `cells`,
    // so the search runs on a share of the items as it does above 200,000 cells.
    const [name, cap] = set.split('@');
    const opts = cap ? { searchMaxCells: Number(cap) } : {};
    const ds = await dataset(name);
    const b = await fitDataset(ds, { model: 'llmnrm', ...before }, opts);
    rows.push({ set, which: 'before', fit: b });
    console.log(passLine(rows.at(-1)!));
    const a = await fitDataset(ds, { model: 'llmnrm' }, opts);
    rows.push({ set, which: 'after', fit: a });
    console.log(passLine(rows.at(-1)!, b));
  }
  return rows;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      sets: { type: 'string', default: 'naep,naep4,60x1000' },
      before: { type: 'string', default: JSON.stringify(BEFORE_ISSUE_15) },
    },
  });
  console.log(`before: ${values.before}; after: today's defaults`);
  await comparePasses(
    values.sets.split(',').map((s) => s.trim()),
    JSON.parse(values.before) as Partial<FitSettings>,
  );
}
