import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';

/**
 * Strings that only test code holds: the browser bench (worker/bench.ts), fault
 * injection (worker/testHooks.ts, faults.ts, stall.ts), the bridge handle on
 * globalThis (client/main.tsx) and the WebGPU parity page (e2e/parity/).
 */
const TEST_ONLY = [
  'bench: simulate a data set first',
  'simulated crash',
  'WebGPU device lost (simulated',
  'held at the start of L-BFGS',
  'held after a checkpoint',
  '__nrmWorkbench',
  'WebGPU engine parity',
];

/** The built files' text (scripts and pages; source maps quote the sources, so not those). */
function builtText(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(js|html)$/.test(f))
    .map((f) => readFileSync(path.join(dir, f), 'utf8'))
    .join('\n');
}

const found = (text: string) => TEST_ONLY.filter((s) => text.includes(s));

test('the production build holds no test, bench or fault-injection code; the test build does', () => {
  test.setTimeout(300_000);
  // The test build these e2e tests run against (playwright.config.ts).
  const tested = `node_modules/.cache/e2e-dist-${process.env.E2E_PORT ?? 4173}`;
  expect(found(builtText(tested))).toEqual(TEST_ONLY);
  // The production build, as `npm run build` makes it (less its wasm step).
  const out = mkdtempSync(path.join(os.tmpdir(), 'llmnrm-prod-'));
  try {
    const r = spawnSync(
      'npx',
      ['vite', 'build', '--outDir', out, '--emptyOutDir', '--bypass-lock', '--logLevel', 'error'],
      { encoding: 'utf8' },
    );
    expect(r.status, r.stderr).toBe(0);
    const text = builtText(out);
    expect(text).toContain('Psychometrics');
    expect(found(text)).toEqual([]);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
