import {
  createEngine,
  probeEnvironment,
  resolveEngine,
  type EngineEnvironment,
} from '../core/engines/select';
import type { EngineChoice, Problem } from '../core/engines/types';
import {
  createParallelFusedEngine,
  MIN_CELLS_PER_THREAD,
  type ShardPort,
} from '../core/engines/parallel/engine';
import type { EngineHandle } from '../core/fit/fit';
import type { EngineResolution } from '../boundary/protocol';

let env: Promise<EngineEnvironment> | null = null;
let wasmConfigured = false;

/** Which engine `choice` resolves to here, and why. Adapters are probed once per worker. */
export async function resolveChoice(choice: EngineChoice): Promise<EngineResolution> {
  env ??= probeEnvironment();
  const { name, reason } = resolveEngine(choice, await env);
  return { name, reason };
}

/** The engine handle `fitDataset` takes for a user's choice. */
export async function pickEngine(choice: EngineChoice): Promise<EngineHandle> {
  const { name, reason } = await resolveChoice(choice);
  if (name === 'tfjs-wasm' && !wasmConfigured) {
    // Must run before the wasm backend first initialises. Imported on demand so
    // the fused engine never loads tfjs.
    const { configureWasmForBrowser } = await import('./wasmPaths');
    configureWasmForBrowser();
    wasmConfigured = true;
  }
  if (name !== 'fused' && name !== 'wasm')
    return { name, reason, create: (problem) => createEngine(problem, name) };
  // The CPU engines (JS fused loop or WASM kernel) spread over shard workers.
  return {
    name,
    reason,
    create: (problem) => {
      const threads = fusedThreads(problem);
      return threads > 1
        ? createParallelFusedEngine(problem, threads, spawnShard, name)
        : createEngine(problem, name);
    },
  };
}

/** Cores to spread a CPU engine over: up to 8, and only when there is enough work. */
function fusedThreads(problem: Problem): number {
  const cores = Math.min(8, self.navigator?.hardwareConcurrency ?? 1);
  return Math.max(1, Math.min(cores, Math.floor(problem.cells.n / MIN_CELLS_PER_THREAD)));
}

function spawnShard(): ShardPort {
  const w = new Worker(new URL('./shard.worker.ts', import.meta.url), { type: 'module' });
  return {
    post: (msg, transfer) => w.postMessage(msg, transfer),
    onMessage: (h) => w.addEventListener('message', (e) => h(e.data)),
    onError: (h) =>
      w.addEventListener('error', (e) => h(new Error(e.message || 'shard worker failed'))),
    terminate: () => w.terminate(),
  };
}
