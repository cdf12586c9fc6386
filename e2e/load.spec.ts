import { expect, test } from '@playwright/test';
import {
  chart,
  chartStartingWith,
  demoFile,
  dropFiles,
  fixture,
  open,
  openTab,
  pickFiles,
  waitState,
} from './helpers';

test.beforeEach(async ({ page }) => open(page));

test('wide CSV with its items file, picked, then fitted', async ({ page }) => {
  await pickFiles(page, [demoFile('econ-reading.wide.csv'), demoFile('econ-reading.items.csv')]);
  await waitState(page, 'loaded');
  await expect(page.getByTestId('summary-J')).toHaveText('18');
  await expect(page.getByTestId('summary-I')).toHaveText('345');
  await expect(page.getByTestId('summary')).toContainText('naep-economics: 93 items');
  await expect(page.getByTestId('summary')).toContainText('naep-reading: 252 items');
  await page.getByRole('button', { name: 'Fit', exact: true }).click();
  await waitState(page, 'fitted');
  await expect(chartStartingWith(page, 'icc-').locator('path.trace')).toHaveCount(4);
  // Item texts from the items file.
  await expect(page.getByTestId('item-detail')).toContainText('Spending on training');
});

test('long log-probabilities with an items file, dropped', async ({ page }) => {
  await dropFiles(page, [
    demoFile('econ-reading.long-logprob.csv'),
    demoFile('econ-reading.items.csv'),
  ]);
  await waitState(page, 'loaded');
  await expect(page.getByTestId('summary-J')).toHaveText('18');
  await expect(page.getByTestId('summary-I')).toHaveText('345');
  await page.getByText(/^Files \(2\)/).click();
  await expect(page.getByTestId('summary')).toContainText('logprob');
});

test('the four-orders wide file (1,380 items) loads and fits', async ({ page }) => {
  // The default fit runs from two starts and refits both on the search's folds
  // (core/fit/branch.ts): about a minute on a loaded 2-core machine.
  test.setTimeout(300_000);
  await pickFiles(page, [demoFile('econ-reading-4orders.wide.csv')]);
  await waitState(page, 'loaded');
  await expect(page.getByTestId('summary-I')).toHaveText('1380');
  await page.getByRole('button', { name: 'Fit', exact: true }).click();
  await waitState(page, 'fitted', 280_000);
});

const HARNESS = 'samples_naep-economics_2024-01-01T00-00-00.000000.jsonl';

test('an lm-evaluation-harness samples log (.jsonl) with a model name', async ({ page }) => {
  await page.getByText('Reading options').click();
  await page.getByLabel('Model name for harness logs').fill('Llama-3.2-1B');
  await pickFiles(page, [fixture(`harness/Llama-3.2-1B/${HARNESS}`)]);
  await waitState(page, 'loaded');
  await expect(page.getByTestId('summary-J')).toHaveText('1');
  await expect(page.getByTestId('summary-I')).toHaveText('12');
  await expect(page.getByTestId('summary')).toContainText('naep-economics: 12 items');
});

test('a folder of harness logs, one sub-folder per LLM, then fitted', async ({ page }) => {
  await page.getByTestId('folder-input').setInputFiles(fixture('harness'));
  await waitState(page, 'loaded');
  await expect(page.getByTestId('summary-J')).toHaveText('3');
  await expect(page.getByTestId('summary-I')).toHaveText('12');
  await page.getByRole('button', { name: 'Fit', exact: true }).click();
  await waitState(page, 'fitted');
  await openTab(page, 'LLMs');
  await expect(chart(page, 'theta-ranking').locator('.llm-row')).toHaveCount(3);
  await expect(
    chart(page, 'theta-ranking').locator('.llm-row[data-llm="Qwen2.5-72B"]'),
  ).toBeAttached();
});
