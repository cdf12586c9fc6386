import { defineConfig, type Plugin } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

/**
 * The production Content-Security-Policy: every request stays on this origin
 * (connect-src 'self'), no inline scripts and no eval ('wasm-unsafe-eval' only
 * lets tfjs-wasm compile its WebAssembly), workers from self or blob: (tfjs).
 * Styles may be inline because the d3 charts carry their own <style> so that
 * an exported SVG is self-contained. The dev server needs an inline React
 * preamble, so dev keeps the looser policy written in index.html.
 */
export const CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self' blob: data:",
  "worker-src 'self' blob:",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
].join('; ');

function strictCsp(): Plugin {
  return {
    name: 'strict-csp',
    apply: 'build',
    transformIndexHtml(html) {
      return html.replace(
        /(<meta\s+http-equiv="Content-Security-Policy"\s+content=")[^"]*(")/,
        (_m, a: string, b: string) => a + CSP + b,
      );
    },
  };
}

// Cross-origin isolation lets workers share memory (SharedArrayBuffer) and is
// harmless otherwise; the CSP keeps every request on this origin.
const headers = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/**
 * `--mode testbuild` (the e2e tests' and bench/browser's build) keeps the test
 * hooks (worker/testHooks.ts: benchmarks, fault injection; the bridge on
 * globalThis) and builds the WebGPU parity page (e2e/parity/); the production
 * build has neither (e2e/bundle.spec.ts greps the built files).
 */
export const TEST_MODE = 'testbuild';

export default defineConfig(({ mode }) => ({
  plugins: [react(), strictCsp()],
  worker: { format: 'es' },
  server: { headers },
  preview: { headers: { ...headers, 'Content-Security-Policy': CSP } },
  build: {
    target: 'es2022',
    sourcemap: true,
    // index.html is the app; a test build adds the WebGPU engine's e2e test page.
    rolldownOptions: {
      input: {
        main: fileURLToPath(new URL('index.html', import.meta.url)),
        ...(mode === TEST_MODE && {
          'webgpu-parity': fileURLToPath(new URL('e2e/parity/webgpu-parity.html', import.meta.url)),
        }),
      },
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
    // tfjs's Node-only set-up (the wasm backend's files), which the core leaves to src/node.
    // test/support/fastcheck.ts: property tests from one fixed seed (PROPERTY_SEED to change it).
    setupFiles: ['src/node/tfjs.ts', 'test/support/fastcheck.ts'],
    // Default fits search λ by cross-validation first (minutes on a loaded 2-core machine).
    testTimeout: 300_000,
    // Set-up hooks fit models (a default fit runs a 5-fold prior-strength search):
    // 10 s (vitest's default) ran out on a loaded 2-core machine.
    hookTimeout: 300_000,
  },
}));
