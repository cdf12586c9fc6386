import { expect, test, type Page } from '@playwright/test';
import { download, fitRadios, loadDemoFiles, open, startAdamFit, waitState } from './helpers';

/** Issue 31 (8–9): a fit interrupted by a reload is offered again where it is seen; Continue converges. */

type Bridge = { simulateFailure(signal: AbortSignal, kind: 'stall-search'): Promise<void> };

/** Arms the worker's test hook that holds the next fit in its prior-strength search. */
function holdInSearch(page: Page) {
  return page.evaluate(() => {
    const bridge = (globalThis as unknown as { __nrmWorkbench: { bridge: Bridge } }).__nrmWorkbench
      .bridge;
    return bridge.simulateFailure(new AbortController().signal, 'stall-search');
  });
}

/** Exports the shown fit's fit.json and parses it. */
async function shownFitJson(page: Page) {
  const json = await download(page, page.getByRole('button', { name: 'Export fit.json' }));
  return JSON.parse(json.bytes.toString('utf8')) as {
    notes: string[];
    settings: Record<string, unknown>;
    steps: number;
    converged: boolean;
  };
}

const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Data and fitting' });

test.use({ viewport: { width: 1440, height: 900 } });

test('a reload during the prior-strength search offers the fit again in the main area, with its settings', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await open(page);
  await loadDemoFiles(page);
  // A finished fit is shown first: the pending one must not leave it looking current.
  await startAdamFit(page, 20);
  await waitState(page, 'fitted');
  await expect(page.getByTestId('fit-status')).toBeVisible();

  await page.getByLabel('Optimiser').selectOption('fast');
  await page.getByLabel('Max iterations').fill('2500');
  await page.getByLabel('Prior sds (override)').fill('a=1.5');
  await holdInSearch(page);
  await sidebar(page).getByRole('button', { name: 'Fit', exact: true }).click();
  await expect(page.getByTestId('fit-progress')).toContainText('held (test hook)', {
    timeout: 120_000,
  });
  // The worker has recorded the fit (no iterate yet): a reload now must not lose it.
  await expect(page.getByTestId('fit-recorded')).toBeVisible();
  await page.goto('/'); // ?nodemo would start empty

  await waitState(page, 'fitted');
  const offer = page.getByTestId('resume-offer');
  await expect(offer).toBeVisible();
  await expect(offer).toHaveAttribute('data-phase', 'start');
  await expect(offer).toBeInViewport();
  await expect(page.getByRole('main').getByTestId('resume-offer')).toHaveCount(1);
  await expect(offer).toContainText('The results below are of the last fit that finished');
  // The old fit's banner is not shown as if it were the current one.
  await expect(page.getByTestId('fit-status')).toHaveCount(0);
  // The form shows the interrupted fit's settings, the prior field too.
  await expect(page.getByLabel('Prior sds (override)')).toHaveValue('a=1.5');
  await expect(page.getByLabel('Optimiser')).toHaveValue('fast');

  await offer.getByRole('button', { name: 'Resume fit (from the start)' }).click();
  await waitState(page, 'fitting');
  await expect(offer).toHaveCount(0);
  await expect(fitRadios(page)).toHaveCount(2, { timeout: 240_000 });
  await waitState(page, 'fitted');
  await expect(page.getByTestId('fit-status')).toBeVisible();
  const fit = await shownFitJson(page);
  expect(fit.settings).toMatchObject({ optimizer: 'fast', prior: { a: 1.5 }, mode: 'default' });
  expect(typeof fit.settings.priorStrength).toBe('number');
  // Done: nothing is left to resume.
  await page.reload();
  await waitState(page, 'fitted');
  await expect(page.getByTestId('resume-offer')).toHaveCount(0);
});

test('a reload during the fit offers "Resume fit (step N)" in the main area; the step count goes on from N', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await open(page);
  await loadDemoFiles(page);
  await startAdamFit(page, 20);
  await waitState(page, 'fitted');

  await page.getByLabel('Steps').fill('4000');
  await sidebar(page).getByRole('button', { name: 'Fit', exact: true }).click();
  await waitState(page, 'fitting');
  await expect(page.getByTestId('checkpoint')).toHaveAttribute('data-step', /^[1-9]\d{2,}$/, {
    timeout: 60_000,
  });
  await page.goto('/');

  await waitState(page, 'fitted');
  const offer = page.getByTestId('resume-offer');
  await expect(offer).toBeVisible();
  await expect(offer).toHaveAttribute('data-phase', 'fit');
  await expect(offer).toBeInViewport();
  await expect(page.getByTestId('fit-status')).toHaveCount(0);
  await expect(page.getByLabel('Steps')).toHaveValue('4000');
  const step = Number(await offer.getAttribute('data-step'));
  expect(step).toBeGreaterThanOrEqual(100);

  await offer.getByRole('button', { name: `Resume fit (step ${step})` }).click();
  await waitState(page, 'fitting');
  // The progress line counts on from the checkpoint, under the same cap.
  const line = page.getByTestId('fit-progress').locator('p');
  await expect(line).toContainText(/step \d+ of at most 4000/, { timeout: 60_000 });
  const shown = Number(/step (\d+)/.exec((await line.textContent()) ?? '')![1]);
  expect(shown).toBeGreaterThan(step);
  await expect(fitRadios(page)).toHaveCount(2, { timeout: 240_000 });
  await waitState(page, 'fitted');
  await expect(page.getByTestId('fit-info')).toContainText('4000 steps');
  const fit = await shownFitJson(page);
  expect(fit.notes).toContain(`Resumed from a checkpoint at step ${step} (warm start).`);
  expect(fit.steps).toBe(4000);
});

test('"Continue fitting" on a capped fit runs L-BFGS to convergence and replaces the fit', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await open(page);
  await loadDemoFiles(page);
  // Well under the steps the default fit needs on the demo.
  await page.getByLabel('Max iterations').fill('30');
  await sidebar(page).getByRole('button', { name: 'Fit', exact: true }).click();
  await waitState(page, 'fitted', 120_000);
  const status = page.getByTestId('fit-status');
  await expect(status).toHaveAttribute('data-converged', 'false');
  const capped = await shownFitJson(page);
  expect(capped.converged).toBe(false);

  await status.getByRole('button', { name: 'Continue fitting' }).click();
  await expect(status).toHaveAttribute('data-converged', 'true', { timeout: 180_000 });
  await waitState(page, 'fitted');
  await expect(status).toContainText('Converged');
  // Replaced, not added.
  await expect(fitRadios(page)).toHaveCount(1);
  const done = await shownFitJson(page);
  expect(done.converged).toBe(true);
  expect(done.steps).toBeGreaterThan(capped.steps);
  expect(done.settings).toMatchObject({ optimizer: 'fast' });
  expect(done.notes).toContain(
    `Continued from its end point at step ${capped.steps} (L-BFGS until converged).`,
  );
});
