/**
 * npm run bench:scale [-- --shape 2000x20000 --k 4-10|mix --passes 3 | --fit]
 *                       [--threads N] [--missing 0] [--steps N] [--gate open|shut]
 *
 * Leaderboard scale in Node: simulates LLM-NRM data straight into a Dataset
 * (float32 option probabilities, no CSV ever written or parsed), poses the
 * default problem and
 *  - with `--passes N`: times N loss+gradient passes of the CLI's engine (wasm
 *    on `--threads` worker threads), float64 and then float32, or
 *  - with `--fit`: runs the whole default fit (λ search + final fit + SEs) as
 *    `llm-nrm fit` does, logging progress; `--steps` caps the optimiser (a
 *    short capped fit measures the fit's peak memory without waiting for it).
 * `--k mix` draws K from the paper's mix of option counts (mean 5.9, as the
 * browser bench's full shape). `--gate shut` simulates the fallback gate shut
 * (w0 −20, κ 0), as the fits of the real NAEP data end; `open` (the default)
 * is w0 −2, κ 1 (simulate.ts SIMULATED_GATES).
 * Prints time and memory after every phase: RSS now, and the process's peak
 * RSS (VmHWM from /proc/self/status, which counts the worker threads too;
 * a sampled maximum of process.memoryUsage().rss elsewhere).
 *
 * Bytes per cell (Kmax = 10): the Dataset holds obs (4·Kmax), observed (1) and
 * leakage (4) per (LLM, item) pair; the engines' Cells hold cellJ, cellI,
 * target (4·Kmax) and correct per observed cell, and the threaded engine's
 * WASM kernel its own copy (targets padded to a multiple of 4 options),
 * streamed in batches; the λ search adds a training and a held-out copy of
 * the Dataset and their Cells. docs in README.md ("How big a data set").
 */
import fs from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { cliEngine } from '../src/cli/fit';
import { fitDataset } from '../src/core/fit/fit';
import { makeObjective, pose } from '../src/core/fit/pose';
import { simulatedGate, simulateNominal } from '../src/core/model/simulate';
import { parseShape } from './shape';

const { values } = parseArgs({
  options: {
    shape: { type: 'string', default: '2000x20000' },
    k: { type: 'string', default: '4-10' },
    passes: { type: 'string', default: '3' },
    fit: { type: 'boolean', default: false },
    steps: { type: 'string' },
    threads: { type: 'string' },
    missing: { type: 'string', default: '0' },
    seed: { type: 'string', default: '1' },
    gate: { type: 'string', default: 'open' },
  },
});
const { J, I } = parseShape(values.shape);
const km = /^(\d+)(?:-(\d+))?$/.exec(values.k);
if (!km && values.k !== 'mix')
  throw new Error(`--k: expected K, Kmin-Kmax such as 4-10, or mix; got "${values.k}"`);
const kRange: [number, number] | undefined = km
  ? [Number(km[1]), Number(km[2] ?? km[1])]
  : undefined;
const gate = simulatedGate(values.gate, '--gate');
const threads = values.threads === undefined ? undefined : Number(values.threads);

const gib = (b: number) => `${(b / 2 ** 30).toFixed(2)} GiB`;
let sampled = 0;
const sampler = setInterval(() => (sampled = Math.max(sampled, process.memoryUsage().rss)), 200);
/** Peak RSS of the process: VmHWM where Linux reports it, else the sampled maximum. */
function peak(): number {
  sampled = Math.max(sampled, process.memoryUsage().rss);
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    if (m) return Math.max(sampled, Number(m[1]) * 1024);
  } catch {
    // not Linux
  }
  return sampled;
}
const t0 = performance.now();
let tPhase = t0;
function phase(what: string) {
  const now = performance.now();
  console.log(
    `${what.padEnd(44)} ${((now - tPhase) / 1000).toFixed(1).padStart(8)} s  (total ${((now - t0) / 1000).toFixed(0)} s)  RSS ${gib(process.memoryUsage().rss)}  peak ${gib(peak())}`,
  );
  tPhase = now;
}

console.log(
  `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, ${gib(os.totalmem())}, Node ${process.version}`,
);
const { data } = simulateNominal({
  J,
  I,
  kRange,
  seed: Number(values.seed),
  missing: Number(values.missing),
  concentration: 50,
  gate,
});
const meanK = data.nOptions.reduce((a, b) => a + b, 0) / I;
let cells = 0;
for (let c = 0; c < J * I; c++) cells += data.observed[c];
console.log(
  `data: ${J} LLMs × ${I} items, K ${kRange?.join('–') ?? 'mix'} (mean ${meanK.toFixed(2)}, Kmax ${data.Kmax}), gate ${gate}, ${cells} cells`,
);
phase('simulated (Dataset, float32 obs)');
const engine = cliEngine('auto', threads);

if (!values.fit) {
  const posed = pose(data, { model: 'llmnrm', mode: 'default' });
  phase('posed (Cells + start)');
  const eng = await engine.create(posed.problem);
  const obj = makeObjective(posed, eng);
  const g = new Float64Array(posed.x0.length);
  await obj.f(posed.x0, g);
  phase(`engine ready + first pass (${engine.reason})`);
  const n = Math.max(1, Number(values.passes));
  const t = performance.now();
  for (let r = 0; r < n; r++) await obj.f(posed.x0, g);
  const per = (performance.now() - t) / n;
  phase(`${n} more passes`);
  console.log(`per loss+gradient pass: ${(per / 1000).toFixed(2)} s`);
  // The float32 passes a mixed-precision fit takes first (where the engine has them).
  await obj.f(posed.x0, g, true);
  const t32 = performance.now();
  for (let r = 0; r < n; r++) await obj.f(posed.x0, g, true);
  const per32 = (performance.now() - t32) / n;
  phase(`${n} float32 passes`);
  console.log(
    `per float32 pass: ${(per32 / 1000).toFixed(2)} s (${(per32 / per).toFixed(2)}× float64)` +
      (eng.float32 ? '' : ' (this engine has no float32 path: both are float64)'),
  );
  eng.dispose();
} else {
  let last = 0;
  const fit = await fitDataset(
    data,
    { model: 'llmnrm', ...(values.steps ? { steps: Number(values.steps) } : {}) },
    {
      engine,
      onProgress: (p) => {
        if (p.elapsedMs - last < 60_000) return;
        last = p.elapsedMs;
        console.log(
          `  ${p.phase ?? 'final fit'}: ${p.passes} passes, objective ${p.objective.toFixed(1)}, ${(p.elapsedMs / 1000).toFixed(0)} s, peak ${gib(peak())}`,
        );
      },
    },
  );
  phase('default fit, with SEs');
  const sel = fit.priorSelection;
  console.log(
    `fit: ${fit.passes} passes + ${sel?.passes ?? 0} choosing λ = ${fit.settings.priorStrength}; ` +
      `${fit.seconds.toFixed(0)} s; objective ${fit.objective.toFixed(3)}; converged ${fit.converged} (${fit.stopReason}); ` +
      `${((fit.seconds * 1000) / (fit.passes + (sel?.passes ?? 0))).toFixed(0)} ms per pass; SEs: ${fit.seMethod}`,
  );
}
clearInterval(sampler);
console.log(`peak RSS ${gib(peak())}`);
process.exit(0);
