import * as tf from '@tensorflow/tfjs-core';

/** tfjs backends this project ships. */
export type TfjsBackend = 'webgpu' | 'webgl' | 'wasm' | 'cpu';

/** True under Node (CLI, tests), false in a browser window or worker. */
export function inNode(): boolean {
  return typeof process !== 'undefined' && typeof process.versions?.node === 'string';
}

/** Imports a Node built-in without letting a browser bundler try to resolve it. */
function nodeBuiltin<T>(name: string): Promise<T> {
  return import(/* @vite-ignore */ name) as Promise<T>;
}

let gradientsReady: Promise<void> | null = null;

/**
 * Registers tfjs-core's gradient functions once. tfjs-core leaves them out of
 * its entry point (tree shaking), so autodiff needs
 * `@tensorflow/tfjs-core/dist/register_all_gradients`. Bundlers (Vite, Vitest)
 * load that ES module as is; plain Node cannot (its imports omit extensions and
 * the package is not marked as ESM), so there we fall back to a loader hook.
 */
export function ensureGradients(): Promise<void> {
  gradientsReady ??= (async () => {
    if (tf.getGradient('Exp')) return;
    try {
      await import('@tensorflow/tfjs-core/dist/register_all_gradients');
    } catch (err) {
      if (!inNode()) throw err;
      await registerGradientsInNode();
    }
    if (!tf.getGradient('Exp')) throw new Error('tfjs gradients did not register');
  })();
  return gradientsReady;
}

/**
 * A module-loader hook (Node ≥ 20.6) that loads tfjs's ESM build under plain
 * Node: relative specifiers from tagged modules get `.js` (files before
 * directories: `./gradients` is both) and the files are loaded as ES modules.
 * The tag keeps the hook away from every other module. The ESM copy shares the
 * CJS copy's engine and registries, which tfjs keeps on `globalThis`.
 */
const HOOK = `
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
const TAG = '?tfjs-esm';
const isFile = (u) => existsSync(fileURLToPath(u)) && statSync(fileURLToPath(u)).isFile();
export async function resolve(spec, ctx, next) {
  const p = ctx.parentURL;
  if (p && p.endsWith(TAG) && (spec.startsWith('./') || spec.startsWith('../'))) {
    const base = new URL(spec, p).href.split('?')[0];
    for (const c of [base, base + '.js', base + '/index.js']) {
      if (c.endsWith('.js') && isFile(c)) return { url: c + TAG, format: 'module', shortCircuit: true };
    }
  }
  return next(spec, ctx);
}
export async function load(url, ctx, next) {
  return next(url, url.endsWith(TAG) ? { ...ctx, format: 'module' } : ctx);
}`;

async function registerGradientsInNode(): Promise<void> {
  const mod = await nodeBuiltin<typeof import('node:module')>('node:module');
  const url = await nodeBuiltin<typeof import('node:url')>('node:url');
  if (typeof mod.register !== 'function') {
    throw new Error('tfjs engines need Node ≥ 20.6 (module.register) to load tfjs gradients');
  }
  mod.register('data:text/javascript,' + encodeURIComponent(HOOK));
  const entry = mod.createRequire(import.meta.url).resolve('@tensorflow/tfjs-core/package.json');
  const target = new URL('dist/register_all_gradients.js', url.pathToFileURL(entry));
  await import(/* @vite-ignore */ target.href + '?tfjs-esm');
}

/** Points the wasm backend at the .wasm files in node_modules (Node only). */
async function configureWasmForNode(): Promise<void> {
  const wasm = await import('@tensorflow/tfjs-backend-wasm');
  const mod = await nodeBuiltin<typeof import('node:module')>('node:module');
  const path = await nodeBuiltin<typeof import('node:path')>('node:path');
  const pkg = mod
    .createRequire(import.meta.url)
    .resolve('@tensorflow/tfjs-backend-wasm/package.json');
  // A plain directory path with a trailing separator; emscripten reads it with fs.
  wasm.setWasmPaths(path.join(path.dirname(pkg), 'dist') + path.sep);
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
        if (inNode()) await configureWasmForNode();
        else await import('@tensorflow/tfjs-backend-wasm');
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
  const b = tf.backend() as unknown as { firstUse?: boolean };
  if (name === 'cpu' && 'firstUse' in b) b.firstUse = false;
}
