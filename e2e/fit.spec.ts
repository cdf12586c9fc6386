import { expect, test } from '@playwright/test';
import { fitModel, fitRadios, loadDemoFiles, open, startAdamFit, waitState } from './helpers';

test('cancelling a running fit stops it and leaves the app usable', async ({ page }) => {
  await open(page, true);
  await expect(fitRadios(page)).toHaveCount(1);
  await startAdamFit(page, 100000);
  await waitState(page, 'fitting');
  // Live progress: step and objective, and the objective curve.
  await expect(page.getByTestId('fit-progress')).toContainText(
    /step \d+ of at most 100000 · objective/,
  );
  await expect(page.locator('figure[data-chart="objective-live"] path').first()).toBeAttached();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await waitState(page, 'fitted');
  await expect(page.getByTestId('notice')).toContainText('Cancelled');
  await expect(page.getByTestId('fit-progress')).toHaveCount(0);
  await expect(fitRadios(page)).toHaveCount(1);

  // The worker is free again: a new fit runs to the end.
  await page.getByLabel('Optimiser').selectOption('fast');
  await fitModel(page, 'nrm-soft');
  await expect(page.getByRole('radio', { name: /nrm-soft/ })).toBeChecked();
});

test('cancelling the only fit returns to "loaded"', async ({ page }) => {
  await open(page);
  await loadDemoFiles(page, false);
  await startAdamFit(page, 100000);
  await expect(page.getByTestId('fit-progress')).toContainText('step');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await waitState(page, 'loaded');
});

test('the engine picker says which engine runs and why', async ({ page }) => {
  await open(page);
  await expect(page.getByTestId('engine-note')).toContainText(/^Runs on \S+: .+/);
  await page.getByLabel('Engine').selectOption('fused');
  await expect(page.getByTestId('engine-note')).toContainText(/^Runs on fused/);
});

for (const engine of ['tfjs-wasm', 'tfjs-cpu']) {
  test(`a short Adam fit runs on ${engine} in the worker`, async ({ page }) => {
    await open(page);
    await loadDemoFiles(page, false);
    await page.getByLabel('Engine').selectOption(engine);
    await expect(page.getByTestId('engine-note')).toContainText(`Runs on ${engine}`);
    await startAdamFit(page, 20);
    await expect(fitRadios(page)).toHaveCount(1, { timeout: 60_000 });
    await waitState(page, 'fitted');
    await expect(page.getByTestId('fit-info')).toContainText(`20 steps`);
    await expect(page.getByTestId('fit-info')).toContainText(engine);
  });
}
