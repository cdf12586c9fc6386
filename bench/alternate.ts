/**
 * The final fit's two paths side by side (issue 28), in one run:
 *   npx tsx bench/alternate.ts [--sets naep,naep4,189x1000:open,189x1000:shut] [--engine fused|wasm] [--lambda 2] [--variants blocks/lbfgs,exact/alternate]
 *
 * Fits each set with the default settings once per variant `curvature/finalFit`
 * (default: blocks/lbfgs, the path before issue 28: Adam warm-up, L-BFGS with
 * probed blocks; exact/lbfgs: exact blocks from one sweep; exact/alternate:
 * item and LLM Newton sweeps in place of the warm-up), and prints for each the final
 * fit's passes (and the λ search's), wall time, objective, scaled gradient
 * norm and stop reason. Sets: the demo (econ-reading with its items file),
 * the four-orders demo, simulated `JxI:open|shut` (margin gate truth, seed 7,
 * 5% missing, concentration 100, as bench/gate.ts). `--lambda` fixes λ
 * (no search; the final fit then runs from the documented start only).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import '../src/node/tfjs';
import { loadDatasetFromPaths } from '../src/node/files';
import type { Dataset } from '../src/core/data/types';
import { fitDataset, FUSED_HANDLE, type EngineHandle } from '../src/core/fit/fit';
import type { FitJson, FitSettings } from '../src/core/fit/types';
import { simulateNominal } from '../src/core/model/simulate';
import { createEngine } from '../src/core/engines/select';

const demo = path.resolve(fileURLToPath(new URL('../public/demo/', import.meta.url)));

async function dataset(name: string): Promise<Dataset> {
  if (name === 'naep' || name === 'naep4') {
    const base = name === 'naep' ? 'econ-reading' : 'econ-reading-4orders';
    return loadDatasetFromPaths(
      [`${base}.items.csv`, `${base}.wide.csv`].map((f) => path.join(demo, f)),
    );
  }
  const [shape, gate] = name.split(':');
  const [J, I] = shape.split('x').map(Number);
  return simulateNominal({
    J,
    I,
    seed: 7,
    missing: 0.05,
    concentration: 100,
    gate: gate === 'shut' ? 'shut' : 'open',
    gateForm: 'margin',
  }).data;
}

function line(set: string, which: string, f: FitJson): string {
  const sel = f.priorSelection;
  return (
    `${set.padEnd(16)} ${which.padEnd(15)} final ${String(f.passes).padStart(5)} passes (${String(f.steps).padStart(4)} steps)` +
    ` + search ${String(sel?.passes ?? 0).padStart(5)}  ${f.seconds.toFixed(1).padStart(6)} s (final fit ${(f.seconds - (f.trace[0]?.seconds ?? 0)).toFixed(1)} s)` +
    `  objective ${f.objective.toFixed(4)} optimised ${(f.objective + f.penalty).toFixed(4)}  |g| ${f.gradNorm?.toExponential(2)} ${f.converged ? 'converged' : 'NOT converged'} (${f.stopReason})` +
    `  λ ${f.settings.priorStrength?.toFixed(3)} w0 ${f.global.w0.toFixed(2)} κ ${f.global.kappa.toFixed(3)} Gmax ${f.gateMax?.toExponential(1)}`
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      sets: { type: 'string', default: 'naep,naep4' },
      engine: { type: 'string', default: 'fused' },
      lambda: { type: 'string' },
      variants: { type: 'string', default: 'blocks/lbfgs,exact/lbfgs,exact/alternate' },
    },
  });
  const handle: EngineHandle =
    values.engine === 'fused'
      ? FUSED_HANDLE
      : {
          name: values.engine as EngineHandle['name'],
          reason: values.engine!,
          create: (p) => createEngine(p, values.engine as EngineHandle['name']),
        };
  const variants = values.variants.split(',').map((v) => v.split('/'));
  for (const set of values.sets.split(',')) {
    const ds = await dataset(set.trim());
    for (const [curvature, finalFit] of variants) {
      const s: Partial<FitSettings> = {
        model: 'llmnrm',
        curvature: curvature as FitSettings['curvature'],
        finalFit: finalFit as FitSettings['finalFit'],
      };
      if (values.lambda) s.priorStrength = Number(values.lambda);
      const fit = await fitDataset(ds, s, { engine: handle });
      console.log(line(set, `${curvature}/${finalFit}`, fit));
    }
  }
}
