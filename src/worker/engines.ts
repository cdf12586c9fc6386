import {
  createEngine,
  probeEnvironment,
  resolveEngine,
  type EngineEnvironment,
} from '../core/engines/select';
import type { EngineChoice } from '../core/engines/types';
import {
  createParallelFusedEngine,
  threadsFor,
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
      const threads = threadsFor(problem.cells.n, self.navigator?.hardwareConcurrency ?? 1);
      return threads > 1
        ? createParallelFusedEngine(problem, threads, spawnShard, name)
        : createEngine(problem, name);
    },
  };
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
