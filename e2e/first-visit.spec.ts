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

test('the first visit says what the demo is (dismissible), and eq. 10 opens the model summary', async ({
  page,
}) => {
  await open(page, true);
  const guide = page.getByTestId('demo-guide');
  await expect(guide).toContainText('18 instruction-tuned LLMs');
  await expect(guide).toContainText('345 NAEP');
  await expect(page.getByTestId('view-guide')).toContainText('reference LLM');
  await page.getByRole('link', { name: 'eq. 10' }).click();
  await expect(page.getByTestId('model-summary')).toHaveAttribute('open', '');
  await expect(page.locator('#eq-10')).toBeInViewport();
  // Every equation of the paper's model section, 1 to 15, in the app's own words.
  await expect(page.locator('.equations dt')).toHaveCount(15);
  await guide.getByRole('button', { name: 'Got it' }).click();
  await expect(guide).toHaveCount(0);
  await page.reload();
  await waitState(page, 'fitted');
  await expect(page.getByTestId('demo-guide')).toHaveCount(0);
});
