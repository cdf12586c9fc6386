/**
 * npm run bench [-- --shape 189x5000 --steps 2500 --node-only | --browser-only]
 *                  [--engines fused,wasm,wasm-f32,fused-threads,wasm-threads,wasm-f32-threads,
 *                   tfjs-wasm --model llmnrm]
 *                  [--passes-only: the Node per-pass table alone, no optimisers, no file written]
 *                  [browser flags: see bench/browser/run.ts]
 *
 * Node part: simulates data at the paper's shape scaled to this machine (189
 * LLMs × 5,000 items, mixed K averaging ≈ 5.8), measures ms per loss+gradient
 * pass for each engine, then runs paper-faithful Adam-2500 and the fast
 * optimiser on the fused engine and prints ratios from this one run.
 * Browser part (bench/browser/run.ts): the same in the production build's Web
 * Worker in headless Chromium, plus memory, main-thread long tasks, time to the
 * first curves and parse throughput. Each writes its own section of
 * bench/results.md and keeps the other's.
 */
import os from 'node:os';
import '../src/node/tfjs';
import { parseArgs } from 'node:util';
import { createEngine } from '../src/core/engines/select';
import type { EngineName } from '../src/core/engines/types';
import { createNodeParallelEngine } from '../src/node/parallel';
import { fitDataset, FUSED_HANDLE } from '../src/core/fit/fit';
import { makeObjective, pose } from '../src/core/fit/pose';
import type { FitJson } from '../src/core/fit/types';
import { simulateNominal } from '../src/core/model/simulate';
import { cliEngine } from '../src/cli/fit';
import type { ModelType } from '../src/core/model/types';
import { BROWSER_OPTIONS, browserOptionsFrom, runBrowserBench } from './browser/run';
import { parseShape } from './shape';
import { saveNodeFused, today, writeSection } from './browser/results';

const { values } = parseArgs({
  options: {
    ...BROWSER_OPTIONS,
    J: { type: 'string' },
    I: { type: 'string' },
    engines: {
      type: 'string',
      default: 'fused,wasm,wasm-f32,fused-threads,wasm-threads,wasm-f32-threads,tfjs-wasm',
    },
    'passes-only': { type: 'boolean', default: false },
    model: { type: 'string', default: 'llmnrm' },
    'node-only': { type: 'boolean', default: false },
    'browser-only': { type: 'boolean', default: false },
  },
});
if (values['node-only'] && values['browser-only'])
  throw new Error('--node-only and --browser-only exclude each other');
const shape = parseShape(values.shape);
const J = Number(values.J ?? shape.J);
const I = Number(values.I ?? shape.I);
const steps = Number(values.steps);
const model = values.model as ModelType;

try {
  if (!values['browser-only']) {
    const fusedMs = await runNodeBench();
    if (fusedMs !== undefined) saveNodeFused({ J, I, fusedMs, date: today() });
  }
  if (!values['node-only'])
    await runBrowserBench(browserOptionsFrom({ ...values, shape: `${J}x${I}` }));
} catch (e) {
  // Plainly, and before tfjs-wasm's process handlers rethrow it with their whole source.
  console.error(e);
  process.exit(1);
}

/** The Node benchmark; writes the Node section of `--out` and returns fused ms per pass. */
async function runNodeBench(): Promise<number | undefined> {
  let peakRss = 0;
  let peakHeap = 0;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 50);
  const mib = (b: number) => (b / 2 ** 20).toFixed(0);

  /** Worker threads for the parallel CPU engines: every core, up to 8 (as the CLI). */
  const THREADS = Math.min(8, os.availableParallelism());

  const t0 = performance.now();
  const { data } = simulateNominal({ J, I, seed: 2026, concentration: 50 });
  const meanK = data.nOptions.reduce((a, b) => a + b, 0) / I;
  console.log(
    `simulated ${J} × ${I}, mean K ${meanK.toFixed(2)}, in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  // 1. ms per loss+gradient pass, per engine, at the documented start.
  const passRows: { engine: string; ms: number }[] = [];
  for (const name of values.engines.split(',') as EngineName[]) {
    const posed = pose(data, { model, mode: 'default' });
    // `wasm-f32…`: the wasm engine's float32 kernel (the passes a mixed-precision fit takes coarsely).
    const coarse = name.startsWith('wasm-f32');
    const base = coarse ? (name.replace('-f32', '') as EngineName) : name;
    let engine;
    try {
      engine =
        base === ('fused-threads' as EngineName)
          ? await createNodeParallelEngine(posed.problem, THREADS)
          : base === ('wasm-threads' as EngineName)
            ? await createNodeParallelEngine(posed.problem, THREADS, 'wasm')
            : await createEngine(posed.problem, base);
    } catch (e) {
      console.log(`${name}: unavailable (${(e as Error).message})`);
      continue;
    }
    const obj = makeObjective(posed, engine);
    const g = new Float64Array(posed.x0.length);
    await obj.f(posed.x0, g, coarse); // warm-up (JIT, uploads)
    // The fastest of `reps` passes: a pass slowed by something else on the
    // machine says nothing about the engine.
    const reps = /^(fused|wasm)/.test(name) ? 7 : 2;
    let ms = Infinity;
    for (let r = 0; r < reps; r++) {
      const t = performance.now();
      await obj.f(posed.x0, g, coarse);
      ms = Math.min(ms, performance.now() - t);
    }
    engine.dispose();
    passRows.push({ engine: name, ms });
    console.log(`${name}: ${ms.toFixed(0)} ms per loss+gradient pass`);
  }
  if (values['passes-only']) {
    clearInterval(sampler);
    const base = passRows.find((r) => r.engine === 'fused');
    for (const r of passRows)
      console.log(
        `| ${r.engine} | ${base ? (r.ms / base.ms).toFixed(3) : '—'}× (${r.ms.toFixed(0)} ms) |`,
      );
    return undefined;
  }

  // 2. Optimisers: the paper's Adam-2500 (the PyTorch reference reimplemented:
  // eq. 15, full batch, lr 0.05) on the float64 fused engine, the default fit on
  // the same engine, and the CLI's default fit as `llm-nrm fit` runs it.
  const CLI_HANDLE = cliEngine('auto');
  const runs: { name: string; fit: FitJson; rss: number; heap: number }[] = [];
  for (const [name, settings] of [
    [`adam-${steps} (paper mode)`, { model, mode: 'paper', optimizer: 'adam', steps }],
    ['default fit, fused engine', { model, mode: 'default', optimizer: 'fast', steps }],
    [
      `default fit as the CLI runs it (${CLI_HANDLE.name}, ${THREADS} threads)`,
      { model, mode: 'default', optimizer: 'fast', steps },
    ],
  ] as const) {
    peakRss = peakHeap = 0;
    let last = 0;
    const fit = await fitDataset(data, settings, {
      engine: name.includes('CLI') ? CLI_HANDLE : FUSED_HANDLE,
      onProgress: (p) => {
        if (p.elapsedMs - last > 10_000) {
          last = p.elapsedMs;
          console.log(
            `  ${name}: step ${p.step}, objective ${p.objective.toFixed(1)}, ${(p.elapsedMs / 1000).toFixed(0)} s`,
          );
        }
      },
    });
    runs.push({ name, fit, rss: peakRss, heap: peakHeap });
    console.log(
      `${name}: ${fit.passes} passes (+${fit.priorSelection?.passes ?? 0} choosing the prior strength), CE ${fit.crossEntropy.toFixed(2)}, ${fit.seconds.toFixed(1)} s`,
    );
  }
  clearInterval(sampler);

  const adam = runs[0].fit;
  /** First trace point at or below Adam-2500's cross-entropy: passes and seconds to reach it. */
  function reach(fit: FitJson): string {
    const hit = fit.trace.find((t) => t.crossEntropy <= adam.crossEntropy);
    return hit
      ? `${hit.passes} passes, ${(hit.seconds / adam.seconds).toFixed(3)} of Adam's time`
      : 'not reached';
  }
  const fused = passRows.find((r) => r.engine === 'fused');
  const lines = [
    `## Node`,
    ``,
    `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, ${mib(os.totalmem())} MiB RAM, Node ${process.version}, ${os.platform()}. No GPU.`,
    `Data: simulated LLM-NRM, ${J} LLMs × ${I} items, mean K ${meanK.toFixed(2)}, ${runs[0].fit.nCells} cells. Model: ${model}.`,
    `Run: ${new Date().toISOString().slice(0, 10)}, \`npm run bench\`. Ratios are within this one run; absolute times on a shared machine are noisy.`,
    ``,
    `### Loss+gradient pass, per engine (Node)`,
    ``,
    `| engine | time per pass vs fused |`,
    `|---|---|`,
    ...passRows.map(
      (r) =>
        `| ${r.engine} | ${fused ? (r.ms / fused.ms).toFixed(3) : '—'}× (${r.ms.toFixed(0)} ms) |`,
    ),
    ``,
    `### Optimisers (Node)`,
    ``,
    `| optimiser | passes (+ prior-strength search) | wall time vs Adam-${steps} | cross-entropy | CE vs Adam-${steps} | reaches Adam-${steps}'s CE at | converged | peak RSS | peak heap |`,
    `|---|---|---|---|---|---|---|---|---|`,
    ...runs.map(
      (r) =>
        `| ${r.name} | ${r.fit.passes}${r.fit.priorSelection ? ` + ${r.fit.priorSelection.passes}` : ''} | ${(r.fit.seconds / adam.seconds).toFixed(3)} (${r.fit.seconds.toFixed(0)} s) | ${r.fit.crossEntropy.toFixed(2)} | ${(((r.fit.crossEntropy - adam.crossEntropy) / adam.crossEntropy) * 100).toFixed(3)}% | ${reach(r.fit)} | ${r.fit.converged} | ${mib(r.rss)} MiB | ${mib(r.heap)} MiB |`,
    ),
    ``,
  ];
  writeSection(values.out, 'node', lines);
  console.log('\n' + lines.join('\n'));
  return fused?.ms;
}
