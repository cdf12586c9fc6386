/**
 * tfjs under plain Node (the CLI and benches through tsx, and vitest's setup):
 * installs the core's NodeTfjsHooks (core/engines/tfjs/backend.ts) on import.
 */
import { createRequire, register } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { installNodeTfjs } from '../core/engines/tfjs/backend';

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

const resolvePackage = (name: string) => createRequire(import.meta.url).resolve(name);

async function registerGradients(): Promise<void> {
  if (typeof register !== 'function') {
    throw new Error('tfjs engines need Node ≥ 20.6 (module.register) to load tfjs gradients');
  }
  register('data:text/javascript,' + encodeURIComponent(HOOK));
  const entry = resolvePackage('@tensorflow/tfjs-core/package.json');
  const target = new URL('dist/register_all_gradients.js', pathToFileURL(entry));
  await import(/* @vite-ignore */ target.href + '?tfjs-esm');
}

/** The .wasm files in node_modules: a plain directory path, which emscripten reads with fs. */
async function wasmDir(): Promise<string> {
  const pkg = resolvePackage('@tensorflow/tfjs-backend-wasm/package.json');
  return path.join(path.dirname(pkg), 'dist') + path.sep;
}

installNodeTfjs({ registerGradients, wasmDir });
