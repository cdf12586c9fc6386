import { expect, test } from '@playwright/test';
import { chartStartingWith, open, waitState } from './helpers';

test('a first visit opens with the demo loaded and fitted', async ({ page }) => {
  await open(page, true);
  await expect(page.getByTestId('summary-J')).toHaveText('18');
  await expect(page.getByTestId('summary-I')).toHaveText('345');
  // The first item's ICC: one path per option, the key drawn last.
  const icc = chartStartingWith(page, 'icc-');
  await expect(icc.locator('path.trace')).toHaveCount(4);
  await expect(icc.locator('.llm-points [data-llm]').first()).toBeAttached();
  await expect(page.getByRole('radio', { name: /llmnrm · fast/ })).toBeChecked();

  await page.reload();
  await waitState(page, 'fitted');
  await expect(icc.locator('path.trace')).toHaveCount(4);
});

test('"Load demo" shows curves within seconds', async ({ page }) => {
  await open(page, false);
  const t0 = Date.now();
  await page.getByRole('button', { name: 'Load demo' }).click();
  await expect(chartStartingWith(page, 'icc-').locator('path.trace')).toHaveCount(4);
  const ms = Date.now() - t0;
  console.log(`Load demo -> first curves: ${ms} ms`);
  test.info().annotations.push({ type: 'load-demo-to-curves-ms', description: String(ms) });
  await waitState(page, 'fitted');
});
