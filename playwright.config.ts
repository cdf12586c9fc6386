import { defineConfig } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS } from './e2e/chromium';

/**
 * End-to-end tests against a test build (the production build with its test
 * hooks) in Debian's Chromium (no browser downloads here). One worker: the machine has two cores and each test
 * fits models in a Web Worker. Tests wait on `[data-state]`, never on sleeps.
 */
// E2E_PORT lets several people run the suite at once on one machine.
const PORT = Number(process.env.E2E_PORT ?? 4173);
const OUT = `node_modules/.cache/e2e-dist-${PORT}`;

export default defineConfig({
  testDir: 'e2e',
  // One tsconfig for every imported file: src/core/tsconfig.json maps
  // 'papaparse' to its type stand-in (a .d.ts), which Playwright would
  // otherwise follow at run time for the core modules the specs import.
  tsconfig: './tsconfig.json',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 20_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    acceptDownloads: true,
    launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS },
  },
  // A test build (--mode testbuild: the production build plus the test hooks
  // and the parity page, see vite.config.ts; e2e/bundle.spec.ts checks the
  // production build has neither) in its own folder (git-ignored under
  // node_modules), so a colleague's `vite build` into dist/ neither blocks nor
  // overwrites it.
  // Never reuse a server: a stale one would test an old build.
  webServer: {
    command: `npx vite build --mode testbuild --outDir ${OUT} --emptyOutDir --bypass-lock && npx vite preview --outDir ${OUT} --port ${PORT} --strictPort --bypass-lock`,
    url: `http://localhost:${PORT}`,
    reuseExistingServer: false,
    timeout: 120_000,
  },
});
