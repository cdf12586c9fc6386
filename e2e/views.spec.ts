import { expect, test } from '@playwright/test';
import { chart, chartStartingWith, fitModel, open, openTab } from './helpers';

// The demo: 18 LLMs, 345 four-option items in 2 benchmarks, fitted with llmnrm.
test.describe('views of the fitted demo', () => {
  test.beforeEach(async ({ page }) => open(page, true));

  test('Items: table, search, sort, arrow keys, ICC with observed points and tooltip', async ({
    page,
  }) => {
    const table = page.locator('.items-view .data-table').first();
    await expect(table).toContainText('300 of 345 shown');
    await table.getByRole('searchbox').fill('NAEP-E4073');
    await expect(table).toContainText('1 of 345');
    await table.getByRole('searchbox').fill('');

    // Sort by b̃ descending (numeric columns sort descending first).
    await table.getByRole('button', { name: /^b̃/ }).click();
    await expect(table.locator('th[aria-sort="descending"]')).toHaveCount(1);

    // Up/Down step through items.
    const detail = page.getByTestId('item-detail');
    const first = await detail.locator('h3').first().textContent();
    await table.locator('.table-scroll').focus();
    await page.keyboard.press('ArrowDown');
    await expect(detail.locator('h3').first()).not.toHaveText(first ?? '');
    const second = await detail.locator('h3').first().textContent();
    await page.keyboard.press('ArrowUp');
    await expect(detail.locator('h3').first()).not.toHaveText(second ?? '');
    // Home jumps to the first row, End to the last (beyond the first page), PageDown 20 on.
    await page.keyboard.press('Home');
    const firstRow = await table.locator('tbody tr').first().locator('td').first().textContent();
    await expect(detail.locator('h3').first()).toContainText(firstRow ?? '');
    const top = await detail.locator('h3').first().textContent();
    await page.keyboard.press('End');
    await expect(detail.locator('h3').first()).not.toHaveText(top ?? '');
    await expect(table.locator('tbody tr')).toHaveCount(345);
    await page.keyboard.press('Home');
    await expect(detail.locator('h3').first()).toHaveText(top ?? '');
    await page.keyboard.press('PageDown');
    await expect(detail.locator('h3').first()).not.toHaveText(top ?? '');
    await page.keyboard.press('PageUp');
    await expect(detail.locator('h3').first()).toHaveText(top ?? '');

    const icc = chartStartingWith(page, 'icc-');
    await expect(icc.locator('path.trace')).toHaveCount(4);
    await expect(icc.locator('.rug [data-llm]')).toHaveCount(18);
    await expect(icc.locator('.llm-points circle')).toHaveCount(18 * 4);
    const info = chartStartingWith(page, 'item-info-');
    await expect(info.locator('[data-layer]')).toHaveCount(3);

    // Hovering an observed point shows the LLM and its option probabilities.
    const point = icc.locator('.llm-points circle').last();
    const llm = await point.getAttribute('data-llm');
    await point.hover();
    const tip = icc.getByRole('tooltip');
    await expect(tip).toBeVisible();
    await expect(tip).toContainText(llm!);
    await expect(tip).toContainText(/A \d\.\d{3}, B \d\.\d{3}, C \d\.\d{3}, D \d\.\d{3}/);
  });

  test('Information: by benchmark, distribution and test information', async ({ page }) => {
    await openTab(page, 'Information');
    await expect(chart(page, 'info-by-benchmark').locator('.benchmark')).toHaveCount(2);
    await expect(chart(page, 'info-distribution').locator('[data-bin]').first()).toBeAttached();
    await expect(chart(page, 'test-information').locator('path').first()).toBeAttached();
    await expect(page.getByText(/Distractor identity adds \d+%/)).toBeVisible();
  });

  test('Distractors: by benchmark, histogram and bands of the selected item', async ({ page }) => {
    await openTab(page, 'Distractors');
    await expect(chart(page, 'distractors-by-benchmark').locator('.benchmark')).toHaveCount(2);
    await expect(
      chart(page, 'distractor-histogram').locator('[data-count]').first(),
    ).toBeAttached();
    const bands = chartStartingWith(page, 'bands-');
    await expect(bands.locator('.band').first()).toBeAttached();
    await page.getByRole('button', { name: 'Next ›' }).click();
    await expect(bands).toHaveAttribute('data-chart', 'bands-NAEP-E407301');
  });

  test('LLMs: ranking, sharpness, δ and ρ heatmaps, gate; wrong answers on click and Enter', async ({
    page,
  }) => {
    await openTab(page, 'LLMs');
    const ranking = chart(page, 'theta-ranking');
    await expect(ranking.locator('.llm-row[data-llm]')).toHaveCount(18);
    await expect(chart(page, 'sharpness').locator('[data-llm]')).toHaveCount(18);
    await expect(chart(page, 'position-bias-delta').locator('.cell')).toHaveCount(18 * 4);
    await expect(chart(page, 'fallback-rho').locator('.cell')).toHaveCount(18 * 4);
    const gatePoints = await chart(page, 'fallback-gate').locator('circle[data-llm]').count();
    expect(gatePoints).toBeGreaterThan(100);
    expect(gatePoints).toBeLessThanOrEqual(2000);

    await ranking.locator('.llm-row[data-llm="Llama-3.2-1B"]').click();
    const answers = page.getByTestId('llm-answers');
    await expect(answers.locator('h3')).toContainText('Llama-3.2-1B:');
    await expect(answers.locator('tbody tr').first()).toBeVisible();

    await ranking.locator('.llm-row[data-llm="Qwen2.5-72B"]').focus();
    await page.keyboard.press('Enter');
    await expect(answers.locator('h3')).toContainText('Qwen2.5-72B:');
  });
});

test('a binary model shows P(correct) curves and notes where views do not apply', async ({
  page,
}) => {
  await open(page, true);
  await fitModel(page, '2pl');
  await expect(page.getByRole('radio', { name: /2pl/ })).toBeChecked();
  await expect(chartStartingWith(page, 'icc-').locator('path.trace')).toHaveCount(2);
  await openTab(page, 'Distractors');
  await expect(page.getByTestId('binary-note')).toBeVisible();
  await openTab(page, 'LLMs');
  await expect(chart(page, 'theta-ranking').locator('.llm-row')).toHaveCount(18);
  await expect(page.getByText('2pl is a binary model')).toBeVisible();
  // Fits are kept side by side: switch back to the first.
  await expect(page.locator('.fit-list input[type=radio]')).toHaveCount(2);
  await expect(
    page.getByRole('table', { name: 'Comparison of fits' }).locator('tbody tr'),
  ).toHaveCount(2);
  await page.getByRole('radio', { name: /llmnrm/ }).check();
  await expect(chart(page, 'sharpness')).toBeVisible();
});
