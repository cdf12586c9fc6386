import { expect, test } from '@playwright/test';

test('first visit shows the fitted demo', async ({ page }) => {
  page.on('console', (m) => console.log('console:', m.type(), m.text()));
  page.on('pageerror', (e) => console.log('pageerror:', e.message));
  await page.goto('/');
  await expect(page.locator('[data-state="fitted"]')).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: 'test-results/first.png', fullPage: true });
});
