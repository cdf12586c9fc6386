/**
 * npm run bench:gpu [-- --shape 189x31554 --engines webgpu-fused,fused,fused-threads,wasm
 *                      --reps 5 --fit webgpu-fused,fused-threads --fit-budget 600
 *                      --dawn backend=vulkan]
 *
 * The WGSL engine (`webgpu-fused`, src/core/engines/webgpu) against the CPU
 * engines in one Node run, on a real GPU: Node gets WebGPU from the npm
 * package `webgpu` (Dawn; a devDependency whose binary ships inside the
 * package). Simulates LLM-NRM data at `--shape` (default the paper's full
 * bank, 189 LLMs × 31,554 items, mean K ≈ 5.85), then
 *  1. per engine: set-up + first pass, ms per loss+gradient pass (median of
 *     `--reps`), and the objective's relative difference from the fused CPU
 *     engine at the same point (a parity check);
 *  2. the whole default fit (λ search + final fit, llmnrm) on each engine in
 *     `--fit`: passes, seconds, objective, converged, stop reason, chosen λ.
 *     A fit past `--fit-budget` seconds is cancelled and reported as such,
 *     with the passes it had reached.
 *
 * Without a GPU, Dawn finds no adapter unless a Vulkan driver is there; with
 * Chromium's SwiftShader (a CPU Vulkan) it runs, e.g.
 *   VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json \
 *     npm run bench:gpu -- --shape 20x200
 * which checks the script end to end (SwiftShader timings mean nothing).
 */
import os from 'node:os';
import '../src/node/tfjs';
import { parseArgs } from 'node:util';
import { createFusedEngine } from '../src/core/engines/fused';
import { createNodeParallelEngine } from '../src/node/parallel';
import { createEngine } from '../src/core/engines/select';
import type { Engine, EngineName, Problem } from '../src/core/engines/types';
import { createWebGpuEngine } from '../src/core/engines/webgpu/engine';
import { deviceOf } from '../src/core/engines/webgpu/device';
import { fitDataset, type EngineHandle } from '../src/core/fit/fit';
import { makeObjective, pose } from '../src/core/fit/pose';
import { simulateNominal } from '../src/core/model/simulate';
import { parseShape } from './shape';

const { values } = parseArgs({
  options: {
    shape: { type: 'string', default: '189x31554' },
    engines: { type: 'string', default: 'webgpu-fused,fused,fused-threads,wasm' },
    reps: { type: 'string', default: '5' },
    fit: { type: 'string', default: 'webgpu-fused,fused-threads' },
    'fit-budget': { type: 'string', default: '600' },
    threads: { type: 'string' },
    dawn: { type: 'string', multiple: true, default: [] },
    seed: { type: 'string', default: '2026' },
  },
});
const { J, I } = parseShape(values.shape);
const reps = Math.max(1, Number(values.reps));
const threads = Number(values.threads ?? Math.min(16, os.availableParallelism()));
const budgetS = Number(values['fit-budget']);
const list = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;

let dawnInstance: GPU | undefined;

/** A WebGPU device from Dawn, or why there is none. */
async function dawnDevice(): Promise<{ device: GPUDevice; about: string } | { error: string }> {
  let mod: { create(flags: string[]): GPU; globals: Record<string, unknown> };
  try {
    mod = (await import('webgpu')) as unknown as typeof mod;
  } catch (e) {
    return { error: `the npm package "webgpu" is not installed (${(e as Error).message})` };
  }
  // The engine reads GPUBufferUsage, GPUMapMode, ... as globals, as in a browser.
  Object.assign(globalThis, mod.globals);
  // Keep the Dawn instance reachable: collected, it takes its devices with it.
  dawnInstance = mod.create(values.dawn);
  const adapter = await dawnInstance.requestAdapter();
  if (!adapter)
    return {
      error:
        'Dawn found no WebGPU adapter (no GPU driver; for a software check set ' +
        'VK_ICD_FILENAMES to a SwiftShader ICD, e.g. /usr/lib/chromium/vk_swiftshader_icd.json)',
    };
  const info = adapter.info;
  const device = await deviceOf(adapter);
  const name =
    [info?.vendor, info?.architecture, info?.device, info?.description].filter(Boolean).join(' ') ||
    'unnamed adapter';
  return {
    device,
    about: `${name}${adapter.isFallbackAdapter ? ' (fallback adapter)' : ''}; max storage binding ${mib(device.limits.maxStorageBufferBindingSize)}`,
  };
}

const t0 = performance.now();
const { data } = simulateNominal({ J, I, seed: Number(values.seed), concentration: 50 });
const meanK = data.nOptions.reduce((a, b) => a + b, 0) / I;
console.log(
  `simulated ${J} × ${I}, mean K ${meanK.toFixed(2)}, Kmax ${data.Kmax}, in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);
console.log(
  `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, ${mib(os.totalmem())}, Node ${process.version}; fused-threads uses ${threads} threads`,
);

const wanted = new Set([...list(values.engines), ...list(values.fit)]);
const gpu = wanted.has('webgpu-fused') ? await dawnDevice() : null;
if (gpu) console.log('error' in gpu ? `webgpu: ${gpu.error}` : `webgpu: ${gpu.about}`);

/** How to create each named engine; null with a reason where it cannot be made here. */
function creator(name: string): ((p: Problem) => Promise<Engine>) | string {
  if (name === 'fused') return async (p) => createFusedEngine(p);
  if (name === 'fused-threads') return (p) => createNodeParallelEngine(p, threads);
  if (name === 'webgpu-fused') {
    if (!gpu || 'error' in gpu) return gpu?.error ?? 'no device';
    const device = gpu.device;
    return (p) => createWebGpuEngine(p, device);
  }
  return (p) => createEngine(p, name as EngineName);
}

/**
 * Counts an engine maker's creations and the time spent inside `evaluate`,
 * so a slow whole fit says whether the passes, the set-ups or the optimiser's
 * own work took the time.
 */
function timed(make: (p: Problem) => Promise<Engine>) {
  let creates = 0;
  let createMs = 0;
  let evals = 0;
  let evalMs = 0;
  const cells = new Map<number, number>();
  const create = async (p: Problem): Promise<Engine> => {
    const t = performance.now();
    const e = await make(p);
    creates++;
    createMs += performance.now() - t;
    const n = p.cells.n;
    return {
      name: e.name,
      detail: e.detail,
      float32: e.float32,
      async evaluate(nat, grad, coarse) {
        const t0 = performance.now();
        const r = await e.evaluate(nat, grad, coarse);
        evals++;
        evalMs += performance.now() - t0;
        cells.set(n, (cells.get(n) ?? 0) + 1);
        return r;
      },
      dispose: () => e.dispose(),
    };
  };
  const summary = (totalS: number) =>
    `${creates} engines set up (${(createMs / 1000).toFixed(1)} s), ${evals} passes inside the engines ` +
    `(${(evalMs / 1000).toFixed(1)} s of ${totalS.toFixed(1)} s; by cells in the problem: ` +
    [...cells].map(([n, k]) => `${n.toLocaleString('en')} × ${k}`).join(', ') +
    ')';
  return { create, summary };
}

// 1. Time per loss+gradient pass at the documented start, and parity with fused.
const posed = pose(data, { model: 'llmnrm', mode: 'default' });
let reference: number;
{
  const refEngine = createFusedEngine(posed.problem);
  reference = await makeObjective(posed, refEngine).f(posed.x0, new Float64Array(posed.x0.length));
  refEngine.dispose();
}
console.log(
  '\n| engine | set-up + first pass | ms per pass (median) | vs fused | objective rel. diff. from fused |',
);
console.log('|---|---|---|---|---|');
const perPass = new Map<string, number>();
// fused first: the others are compared with it.
const engineOrder = list(values.engines).sort((a, b) => +(b === 'fused') - +(a === 'fused'));
for (const name of engineOrder) {
  const make = creator(name);
  if (typeof make === 'string') {
    console.log(`| ${name} | unavailable: ${make} | | | |`);
    continue;
  }
  let engine: Engine;
  const ts = performance.now();
  let first: number;
  try {
    engine = await make(posed.problem);
    const obj = makeObjective(posed, engine);
    first = await obj.f(posed.x0, new Float64Array(posed.x0.length));
    const setup = performance.now() - ts;
    const g = new Float64Array(posed.x0.length);
    const times: number[] = [];
    for (let r = 0; r < reps; r++) {
      const t = performance.now();
      await obj.f(posed.x0, g);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const ms = times[Math.floor(times.length / 2)];
    perPass.set(name, ms);
    const fusedMs = perPass.get('fused');
    console.log(
      `| ${name} | ${setup.toFixed(0)} ms | ${ms.toFixed(1)} | ${fusedMs ? (ms / fusedMs).toFixed(3) + '×' : '—'} | ${(Math.abs(first - reference) / Math.abs(reference)).toExponential(1)} |`,
    );
    engine.dispose();
  } catch (e) {
    console.log(`| ${name} | failed: ${(e as Error).message.split('\n')[0]} | | | |`);
  }
}

// 2. The whole default fit per engine.
console.log(
  `\n| engine | whole default fit | passes (final + λ search) | λ | objective | converged | stop |`,
);
console.log('|---|---|---|---|---|---|---|');
for (const name of list(values.fit)) {
  const make = creator(name);
  if (typeof make === 'string') {
    console.log(`| ${name} | unavailable: ${make} | | | | | |`);
    continue;
  }
  const time = timed(make);
  const handle: EngineHandle = {
    name: (name === 'fused-threads' ? 'fused' : name) as EngineName,
    reason: `bench/gpu.ts: ${name}`,
    create: time.create,
  };
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), budgetS * 1000);
  let reached = { passes: 0, s: 0, phase: '' };
  const phases: string[] = [];
  const ts = performance.now();
  try {
    const fit = await fitDataset(
      data,
      { model: 'llmnrm' },
      {
        engine: handle,
        signal: ac.signal,
        onProgress: (p) => {
          const phase = (p.phase ?? 'final fit').replace(/\s*\(.*\)$/, '');
          if (phase !== reached.phase)
            phases.push(`${phase} at ${((performance.now() - ts) / 1000).toFixed(1)} s`);
          reached = { passes: p.passes, s: p.elapsedMs / 1000, phase };
        },
      },
    );
    const sel = fit.priorSelection;
    console.log(
      `| ${name} | ${fit.seconds.toFixed(1)} s (with SEs ${((performance.now() - ts) / 1000).toFixed(1)} s) | ${fit.passes} + ${sel?.passes ?? 0} | ${fit.settings.priorStrength} | ${fit.objective.toFixed(4)} | ${fit.converged} | ${fit.stopReason} |`,
    );
  } catch (e) {
    const why =
      (e as Error).name === 'AbortError'
        ? `cancelled at the ${budgetS} s budget (${reached.phase}, ${reached.passes} passes of that phase at ${reached.s.toFixed(0)} s)`
        : `failed: ${(e as Error).message.split('\n')[0]}`;
    console.log(`| ${name} | ${why} | | | | | |`);
  } finally {
    clearTimeout(timer);
    console.log(
      `\n${name}: ${time.summary((performance.now() - ts) / 1000)}; phases: ${phases.join(' → ')}\n`,
    );
  }
}
if (gpu && !('error' in gpu)) gpu.device.destroy();
// Dawn keeps the event loop alive.
process.exit(0);
