import { expect, test } from '@playwright/test';
import { NOMINAL_MODELS } from '../src/core/model/types';
import type { ParityReport } from './parity/parity';

/**
 * The fused WebGPU engine computes the fused CPU engine's cross-entropy and
 * gradient. The page runs both on small simulated problems (J = 10, I = 200)
 * on whatever adapter Chromium offers (SwiftShader here, via
 * --enable-unsafe-webgpu). No WebGPU is a failure, not a skip.
 */
test('the WebGPU engines (fused WGSL and tfjs-webgpu/webgl) match the fused CPU engine', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/e2e/parity/webgpu-parity.html');
  const result = page.locator('#result:is([data-state="done"], [data-state="error"])');
  await expect(result).toBeVisible({ timeout: 100_000 });
  const state = await result.getAttribute('data-state');
  const text = (await result.textContent()) ?? '';
  expect(state, `parity page failed: ${text}`).toBe('done');
  expect(errors).toEqual([]);
  const report = JSON.parse(text) as ParityReport;
  console.log(
    `adapter ${report.adapter.vendor} ${report.adapter.architecture} ` +
      `(fallback: ${report.adapter.isFallbackAdapter}); ms/evaluate at J=${report.J}, ` +
      `I=${report.I}: webgpu ${report.msPerEvaluate.webgpu.toFixed(2)}, ` +
      `fused ${report.msPerEvaluate.fused.toFixed(3)}`,
  );
  for (const c of report.cases) {
    console.log(
      `${c.name.padEnd(26)} CE rel ${c.ceRel.toExponential(2)}  CE-only rel ` +
        `${c.ceOnlyRel.toExponential(2)}  grad rel ${c.gradRel.toExponential(2)}`,
    );
  }
  const names = report.cases.map((c) => c.name);
  for (const model of NOMINAL_MODELS) expect(names).toContain(model);
  for (const c of report.cases) {
    expect(c.cells, c.name).toBeGreaterThan(0);
    expect(c.ceRel, `${c.name}: CE`).toBeLessThan(1e-4);
    expect(c.ceOnlyRel, `${c.name}: CE without gradient`).toBeLessThan(1e-4);
    // NaN (an unwritten gradient entry) fails this too.
    expect(c.gradRel, `${c.name}: gradient`).toBeLessThan(1e-4);
  }
  expect(report.deviceLost).toBe('DeviceLostError');
  // The tfjs engine (autodiff) on the WebGPU and WebGL backends, same tolerance.
  expect(report.tfjs.map((c) => c.name)).toEqual(
    expect.arrayContaining(['tfjs-webgpu llmnrm', 'tfjs-webgl llmnrm']),
  );
  for (const c of report.tfjs) {
    console.log(
      `${c.name.padEnd(26)} CE rel ${c.ceRel.toExponential(2)}  grad rel ${c.gradRel.toExponential(2)}`,
    );
    expect(c.ceRel, `${c.name}: CE`).toBeLessThan(1e-4);
    expect(c.gradRel, `${c.name}: gradient`).toBeLessThan(1e-4);
  }
});
