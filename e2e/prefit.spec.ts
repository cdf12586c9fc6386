import { expect, test, type Page } from '@playwright/test';
import { chartStartingWith, demoFile, fixture, open, pickFiles, waitState } from './helpers';

async function openPlain(page: Page) {
  page.on('pageerror', (e) => console.log(`pageerror: ${e.message}`));
  await page.goto('/?nodemo');
  await waitState(page, 'empty');
}

const DEMO = [demoFile('econ-reading.wide.csv'), demoFile('econ-reading.items.csv')];

test('loaded items are listed at once, before any fit, with accuracy and choice shares', async ({
  page,
}) => {
  await open(page); // ?noautofit: stays at the loaded state
  await pickFiles(page, DEMO);
  await waitState(page, 'loaded');
  const items = page.getByTestId('loaded-items');
  await expect(items).toBeVisible();
  await expect(items.getByTestId('table-count')).toHaveText('50 of 345 shown');
  await expect(items.locator('tbody tr').first()).toContainText('✓');
  await expect(items.getByTestId('loaded-item-text')).toContainText('top choice');
  await expect(
    page.getByTestId('fit-offer').getByRole('button', { name: 'Fit llmnrm' }),
  ).toBeInViewport();
});

test('while the automatic fit runs, its progress and a stop button sit above the loaded items', async ({
  page,
}) => {
  await openPlain(page);
  await pickFiles(page, DEMO);
  const running = page.getByTestId('fit-running');
  await expect(running).toBeVisible();
  await expect(running).toContainText('Fitting llmnrm to 18 LLMs × 345 items');
  await expect(running.getByRole('button', { name: 'Stop fitting' })).toBeInViewport();
  await expect(page.getByRole('button', { name: 'Cancel', exact: true })).toBeInViewport();
  await expect(page.getByTestId('loaded-items')).toBeVisible();
  await waitState(page, 'fitted', 90_000);
  await expect(page.getByTestId('loaded-items')).toHaveCount(0);
});

test('a dropped harness-log folder is fitted with no click', async ({ page }) => {
  await openPlain(page);
  await page.getByTestId('folder-input').setInputFiles(fixture('harness'));
  await waitState(page, 'fitted', 90_000);
  await expect(chartStartingWith(page, 'icc-').locator('path.trace').first()).toBeVisible();
});

test('the prior override field names bad input and blocks Fit; a good one is used', async ({
  page,
}) => {
  await open(page);
  await pickFiles(page, DEMO);
  await waitState(page, 'loaded');
  const field = page.getByLabel('Prior sds (override)');
  const fit = page.getByRole('button', { name: 'Fit', exact: true });
  await field.fill('a=1,zz=2');
  await expect(page.locator('.prior-field [role=alert]')).toContainText('unknown group "zz"');
  await expect(fit).toBeDisabled();
  // The results area's Fit refuses too, with the field's error (not the last good override).
  const offer = page.getByTestId('fit-offer');
  await expect(offer.getByRole('button', { name: 'Fit llmnrm' })).toBeDisabled();
  await expect(offer.getByTestId('prefit-prior-error')).toContainText('unknown group "zz"');
  await field.fill('a=-1');
  await expect(page.locator('.prior-field [role=alert]')).toContainText('positive sd');
  await field.fill('a=1, c=3');
  await expect(page.locator('.prior-field [role=alert]')).toHaveCount(0);
  await expect(fit).toBeEnabled();
  await expect(offer.getByTestId('prefit-prior-error')).toHaveCount(0);
  await expect(offer.getByRole('button', { name: 'Fit llmnrm' })).toBeEnabled();
  await fit.click();
  await waitState(page, 'fitted', 90_000);
  await expect(page.getByTestId('fit-status')).toContainText('a 1.0 fixed');
});

test('the item detail shows parameters with ± standard errors', async ({ page }) => {
  await open(page, true);
  await page.locator('.item-params-box summary').click();
  await expect(page.getByTestId('item-params')).toContainText('±');
});
