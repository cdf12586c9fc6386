import { expect, test } from '@playwright/test';
import {
  chartStartingWith,
  demoFile,
  fitModel,
  fixture,
  open,
  pickFiles,
  waitState,
} from './helpers';

test('a bad file shows file, line and column; the app keeps working', async ({ page }) => {
  await open(page, true);
  await pickFiles(page, [fixture('bad.wide.csv')]);
  await waitState(page, 'error');
  const err = page.getByTestId('error');
  await expect(err).toContainText('Could not load the data');
  await expect(page.getByTestId('error-where')).toContainText('bad.wide.csv');
  await expect(page.getByTestId('error-where')).toContainText('line 4');
  await expect(page.getByTestId('error-where')).toContainText('column C');
  // The previous data and fit are still there and usable.
  await expect(chartStartingWith(page, 'icc-').locator('path.trace')).toHaveCount(4);
  await page.getByRole('tab', { name: 'LLMs' }).click();
  await expect(page.locator('.llm-row')).toHaveCount(18);

  // A good load afterwards succeeds (and, being small, is fitted at once).
  await pickFiles(page, [demoFile('econ-reading.wide.csv'), demoFile('econ-reading.items.csv')]);
  await waitState(page, 'fitted', 90_000);
  await expect(page.getByTestId('error')).toHaveCount(0);
});

test('a long file without its items file is refused with the reason', async ({ page }) => {
  await open(page);
  await pickFiles(page, [demoFile('econ-reading.long-logprob.csv')]);
  await waitState(page, 'error');
  await expect(page.getByTestId('error')).toContainText('needs an items file');
  await page.getByRole('button', { name: 'Dismiss' }).click();
  await waitState(page, 'empty');
});

type Bridge = {
  simulateFailure(signal: AbortSignal, kind: 'crash' | 'hang'): Promise<void>;
  timings: { pingEvery: number; pingTimeout: number };
};

for (const kind of ['crash', 'hang'] as const) {
  test(`if the worker ${kind === 'crash' ? 'dies' : 'hangs'}, a fresh one gets the data and a retry works`, async ({
    page,
  }) => {
    await open(page, true);
    await page.evaluate((k) => {
      const bridge = (globalThis as unknown as { __nrmWorkbench: { bridge: Bridge } })
        .__nrmWorkbench.bridge;
      bridge.timings.pingEvery = 200;
      bridge.timings.pingTimeout = 1000;
      bridge.simulateFailure(new AbortController().signal, k).catch(() => undefined);
    }, kind);
    await expect(page.getByTestId('notice')).toContainText(
      kind === 'crash' ? 'worker stopped' : 'worker stopped answering',
    );
    await fitModel(page, 'no-fallback');
    await expect(page.getByRole('radio', { name: /no-fallback/ })).toBeChecked();
  });
}
