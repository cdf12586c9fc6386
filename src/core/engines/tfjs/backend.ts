import * as tf from '@tensorflow/tfjs-core';

/** tfjs backends this project ships. */
export type TfjsBackend = 'webgpu' | 'webgl' | 'wasm' | 'cpu';

/** True under Node (CLI, tests), false in a browser window or worker. */
export function inNode(): boolean {
  const proc = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return typeof proc?.versions?.node === 'string';
}

/**
 * What only Node does for tfjs: load its gradients (plain Node cannot import
 * tfjs-core's ESM build as is) and find the wasm backend's files. Installed by
 * src/node/tfjs.ts, which every Node entry point using a tfjs engine imports
 * (the CLI, the benches, vitest's setup), so the core holds no Node code.
 */
export interface NodeTfjsHooks {
  registerGradients(): Promise<void>;
  /** The directory of the wasm backend's .wasm files, with a trailing separator. */
  wasmDir(): Promise<string>;
}

let nodeHooks: NodeTfjsHooks | null = null;

export function installNodeTfjs(hooks: NodeTfjsHooks): void {
  nodeHooks = hooks;
}

function hooksForNode(): NodeTfjsHooks {
  if (!nodeHooks) throw new Error('tfjs engines under Node need src/node/tfjs.ts imported first');
  return nodeHooks;
}

let gradientsReady: Promise<void> | null = null;

/**
 * Registers tfjs-core's gradient functions once. tfjs-core leaves them out of
 * its entry point (tree shaking), so autodiff needs
 * `@tensorflow/tfjs-core/dist/register_all_gradients`. Bundlers (Vite, Vitest)
 * load that ES module as is; plain Node cannot (its imports omit extensions and
 * the package is not marked as ESM), so there src/node/tfjs.ts's loader hook does.
 */
export function ensureGradients(): Promise<void> {
  gradientsReady ??= (async () => {
    if (tf.getGradient('Exp')) return;
    try {
      await import('@tensorflow/tfjs-core/dist/register_all_gradients');
    } catch (err) {
      if (!inNode()) throw err;
      await hooksForNode().registerGradients();
    }
    if (!tf.getGradient('Exp')) throw new Error('tfjs gradients did not register');
  })();
  return gradientsReady;
}

/**
 * Registers (lazily, so the Node CLI never loads WebGL/WebGPU code) and
 * activates a tfjs backend; throws when it cannot be initialised, since
 * `tf.setBackend` only logs and resolves to false.
 */
export async function activateBackend(name: TfjsBackend): Promise<void> {
  await ensureGradients();
  if (tf.getBackend() === name) return;
  if (!tf.findBackendFactory(name)) {
    switch (name) {
      case 'cpu':
        await import('@tensorflow/tfjs-backend-cpu');
        break;
      case 'wasm':
        if (inNode()) {
          const wasm = await import('@tensorflow/tfjs-backend-wasm');
          wasm.setWasmPaths(await hooksForNode().wasmDir());
        } else await import('@tensorflow/tfjs-backend-wasm');
        break;
      case 'webgl':
        await import('@tensorflow/tfjs-backend-webgl');
        break;
      case 'webgpu':
        await import('@tensorflow/tfjs-backend-webgpu');
        break;
    }
  }
  // Threads need cross-origin isolation and a pthread worker script; one
  // thread suffices here and keeps the set-up simple. The flag is read when
  // the backend first initialises, which may be after the browser's
  // configureWasmForBrowser() has already registered it.
  if (name === 'wasm') tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  const ok = await tf.setBackend(name).catch((err: unknown) => {
    throw new Error(`tfjs backend '${name}' failed to initialise: ${String(err)}`, { cause: err });
  });
  if (!ok) {
    const hint = name === 'wasm' && !inNode() ? ' (call configureWasmForBrowser() first?)' : '';
    throw new Error(`tfjs backend '${name}' is not available in this environment${hint}`);
  }
  // The cpu backend greets Node users once with a banner recommending
  // tfjs-node; this project does not use tfjs-node, so silence it.
  const b: object = tf.backend();
  if (name === 'cpu' && 'firstUse' in b) b.firstUse = false;
}
