import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { open, openTab } from './helpers';

/** Serious and critical axe violations on the page as it is now. */
async function seriousViolations(page: Page) {
  const res = await new AxeBuilder({ page }).analyze();
  return res.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target) }));
}

test('no serious or critical axe violations when empty', async ({ page }) => {
  await open(page);
  expect(await seriousViolations(page)).toEqual([]);
});

test('no serious or critical axe violations on any view', async ({ page }) => {
  // The demo's first fit (prior-strength search included) plus four axe scans
  // outlast the default 60 s on a loaded 2-core machine.
  test.setTimeout(180_000);
  await open(page, true);
  for (const tab of ['Items', 'Information', 'Distractors', 'LLMs']) {
    await openTab(page, tab);
    await expect(page.locator('[role=tabpanel] svg').first()).toBeVisible();
    if (tab === 'LLMs') {
      await page.locator('.llm-row').first().click();
      await expect(page.getByTestId('llm-answers')).toBeVisible();
    }
    expect(await seriousViolations(page), tab).toEqual([]);
  }
});
