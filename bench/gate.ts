/**
 * The fallback gate's two forms (issue 27): does the default fit converge, is
 * the gate open, and is ρ recovered? Fits each demo file and simulated sets
 * (margin truth and eq. 10 truth with the gate open, w0 −2, κ 1; and the gate
 * shut) with the default settings, once with the margin gate (the default's)
 * and once with `gate: 'eq10'`, and prints for each: converged, stop reason,
 * gradient norm, passes, λ, w0, κ, the largest G over the observed cells, and
 * on simulated sets the Spearman correlation of fitted and true θ and ρ.
 *
 * `--lambda L` fixes the prior strength (no search; the fit starts from the
 * documented start, w0 −2, κ 1), as the paper fits.
 *
 * `--passes` instead times one loss+gradient pass of each engine (fused, wasm,
 * wasm float32) with each gate form on the four-orders demo file.
 *
 * Run: npx tsx bench/gate.ts [--only margin|eq10] [--skip-demo] [--J 40 --I 300] [--lambda L]
 *      npx tsx bench/gate.ts --passes
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadDatasetFromPaths } from '../src/node/files';
import type { Dataset } from '../src/core/data/types';
import { fitDataset } from '../src/core/fit/fit';
import { pose } from '../src/core/fit/pose';
import { createEngine } from '../src/core/engines/select';
import { GATE_FORMS, type GateForm } from '../src/core/model/gate';
import { simulateNominal, type SimulatedGate } from '../src/core/model/simulate';
import type { NominalLayout } from '../src/core/model/types';
import { spearman } from '../src/core/stats/corr';

const demo = path.resolve(fileURLToPath(new URL('../public/demo/', import.meta.url)));

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const only = arg('--only', '');
const forms: readonly GateForm[] = only ? [only as GateForm] : GATE_FORMS;
const J = Number(arg('--J', '40'));
const I = Number(arg('--I', '300'));
const lambda = arg('--lambda', '');

interface Truth {
  truth: Float64Array;
  layout: NominalLayout;
}

async function report(name: string, ds: Dataset, gate: GateForm, truth?: Truth) {
  // The fused CPU engine (fitDataset's own): the reference, with both gate forms.
  const fit = await fitDataset(ds, {
    model: 'llmnrm',
    gate,
    ...(lambda ? { priorStrength: Number(lambda) } : {}),
  });
  const cols = [
    name.padEnd(30),
    `${gate}`.padEnd(7),
    `conv ${fit.converged}`.padEnd(11),
    `${fit.stopReason}`.padEnd(12),
    `|g| ${fit.gradNorm?.toExponential(1)}`.padEnd(12),
    `passes ${fit.passes}+${fit.priorSelection?.passes ?? 0}`.padEnd(15),
    `λ ${fit.settings.priorStrength}`.padEnd(7),
    `w0 ${fit.global.w0.toFixed(2)}`.padEnd(11),
    `κ ${fit.global.kappa.toFixed(3)}`.padEnd(10),
    `Gmax ${fit.gateMax?.toExponential(2)}`.padEnd(15),
    `obj ${fit.objective.toFixed(2)}`.padEnd(14),
  ];
  if (truth) {
    const L = truth.layout;
    const thT = Array.from(truth.truth.subarray(L.theta, L.theta + L.J));
    const rhoT: number[] = [];
    const rhoH: number[] = [];
    fit.llms.forEach((l, j) =>
      l.rho.forEach((v, k) => (rhoH.push(v), rhoT.push(truth.truth[L.rho + j * L.Kmax + k]))),
    );
    cols.push(
      `ρS(θ) ${spearman(
        fit.llms.map((l) => l.theta),
        thT,
      ).toFixed(3)}`.padEnd(13),
      `ρS(ρ) ${spearman(rhoH, rhoT).toFixed(3)}`.padEnd(13),
    );
  }
  cols.push(`${fit.seconds.toFixed(1)} s`);
  console.log(cols.join(' '));
}

/** ms per loss+gradient pass of each engine and gate form, at the documented start. */
async function passes() {
  const ds = await loadDatasetFromPaths([path.join(demo, 'econ-reading-4orders.wide.csv')]);
  for (const gate of GATE_FORMS) {
    const posed = pose(ds, { model: 'llmnrm', mode: 'default', gate });
    const nat = new Float64Array(posed.P.natSize);
    posed.P.toNatural(posed.x0, nat);
    const g = new Float64Array(nat.length);
    for (const [name, coarse] of [
      ['fused', false],
      ['wasm', false],
      ['wasm', true],
    ] as const) {
      const engine = await createEngine(posed.problem, name);
      for (let r = 0; r < 5; r++) await engine.evaluate(nat, g, coarse);
      const reps = 40;
      const t0 = performance.now();
      for (let r = 0; r < reps; r++) await engine.evaluate(nat, g, coarse);
      const ms = (performance.now() - t0) / reps;
      console.log(
        `${gate.padEnd(7)} ${`${name}${coarse ? ' f32' : ''}`.padEnd(9)} ${ms.toFixed(2)} ms/pass (${posed.problem.cells.n} cells)`,
      );
      engine.dispose();
    }
  }
}

if (process.argv.includes('--passes')) {
  await passes();
  process.exit(0);
}

if (!process.argv.includes('--skip-demo'))
  for (const file of ['econ-reading.wide.csv', 'econ-reading-4orders.wide.csv']) {
    const ds = await loadDatasetFromPaths([path.join(demo, file)]);
    for (const gate of forms) await report(file, ds, gate);
  }
const sims: [string, SimulatedGate, GateForm][] = [
  ['sim open, margin truth', 'open', 'margin'],
  ['sim open, eq. 10 truth', 'open', 'eq10'],
  ['sim shut', 'shut', 'eq10'],
];
for (const [name, gate, gateForm] of sims) {
  const sim = simulateNominal({ J, I, seed: 7, missing: 0.05, concentration: 100, gate, gateForm });
  for (const form of forms)
    await report(`${name} ${J}×${I}`, sim.data, form, { truth: sim.truth, layout: sim.layout });
}
