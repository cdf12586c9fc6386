import {
  createEngine,
  probeEnvironment,
  resolveEngine,
  type EngineEnvironment,
} from '../core/engines/select';
import type { EngineChoice } from '../core/engines/types';
import type { EngineHandle } from '../core/fit/fit';
import type { EngineResolution } from './protocol';

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
    const { configureWasmForBrowser } = await import('../core/engines/tfjs/wasmPaths.browser');
    configureWasmForBrowser();
    wasmConfigured = true;
  }
  return { name, reason, create: (problem) => createEngine(problem, name) };
}
