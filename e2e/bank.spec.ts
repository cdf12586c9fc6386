import { expect, test, type Page } from '@playwright/test';
import { chart, demoFile, download, open, openTab, parseCsv, waitState } from './helpers';

// The demo: 18 LLMs × 345 four-option items, fitted with llmnrm on open.

const section = (page: Page, name: string) => page.locator(`[data-section="${name}"]`);
const panel = (page: Page) => page.getByTestId('bank-panel');

/** Waits until a section of the Bank & CAT tab reports `state` (fits take a few seconds). */
async function waitSection(page: Page, name: string, state: string): Promise<void> {
  await expect(section(page, name)).toHaveAttribute('data-state', state, { timeout: 60_000 });
}

async function downloadText(page: Page, name: string | RegExp, scope = page.locator('body')) {
  const dl = await download(page, scope.getByRole('button', { name, exact: true }));
  return { name: dl.name, text: dl.bytes.toString('utf8') };
}

test.describe('Bank & CAT', () => {
  test.beforeEach(async ({ page }) => {
    await open(page, true);
    await openTab(page, 'Bank & CAT');
    await expect(panel(page)).toHaveAttribute('data-state', 'idle');
  });

  test('saves the shown fit as a versioned bank.json and its parameter table', async ({ page }) => {
    await expect(page.getByTestId('active-bank')).toContainText('the shown fit (llmnrm)');
    const saved = await downloadText(page, 'Save bank');
    expect(saved.name).toBe('bank.json');
    const bank = JSON.parse(saved.text);
    expect(bank.schema).toBe('llm-nrm-bank/1');
    expect(bank.model).toBe('llmnrm');
    expect(bank.items).toHaveLength(345);
    expect(bank.items[0].a).toHaveLength(4);
    expect(typeof bank.items[0].question).toBe('string');
    expect(bank.calibration.llms).toHaveLength(18);
    expect(bank.provenance.dataFiles).toEqual(['econ-reading.items.csv', 'econ-reading.wide.csv']);
    expect(new Date(bank.provenance.date).getTime()).toBeGreaterThan(Date.now() - 600_000);
    expect(bank.provenance.settings).toMatchObject({ model: 'llmnrm', optimizer: 'fast' });

    const table = await downloadText(page, 'Export parameter table (CSV)');
    const rows = parseCsv(table.text);
    expect(rows[0].join(',')).toBe('item,benchmark,class,key,parameter,option,value,se');
    // a and c per option (2 × 4) and b̃ per item, then the gate's w0 and kappa.
    expect(rows).toHaveLength(1 + 345 * 9 + 2);
    expect(rows.slice(1).every((r) => r.length === 8 && Number.isFinite(Number(r[6])))).toBe(true);
    // Every item parameter carries its Laplace standard error (> 0).
    const items = rows.slice(1).filter((r) => r[0] !== '(global)');
    expect(items.every((r) => Number(r[7]) > 0)).toBe(true);
  });

  test('scores held-out demo LLMs, runs an adaptive test and exports a tiny benchmark', async ({
    page,
  }) => {
    await page.getByRole('button', { name: 'Score held-out demo LLMs' }).click();
    await waitSection(page, 'score', 'done');
    await expect(panel(page)).toHaveAttribute('data-state', 'done');
    await expect(page.getByTestId('active-bank')).toContainText('first 14 demo LLMs');
    const scores = section(page, 'score').locator('.data-table tbody tr');
    await expect(scores).toHaveCount(4);
    await expect(page.getByTestId('not-in-bank')).toContainText('All 345 items');
    const scored = chart(page, 'scored-llms');
    await expect(scored.locator('.llm-row[data-group="new"]')).toHaveCount(4);
    await expect(scored.locator('.llm-row[data-group="calibration"]')).toHaveCount(14);

    // Adaptive test of the first held-out LLM (the default choice), 41 items at most.
    const llm = page.getByLabel('LLM', { exact: true });
    await expect(llm.locator('optgroup[label="New LLMs"] option')).toHaveCount(4);
    await expect(llm).toHaveValue('new:0');
    await page.getByRole('button', { name: 'Run adaptive test' }).click();
    await waitSection(page, 'cat', 'done');
    const n = Number(await page.getByTestId('cat-count').textContent());
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThanOrEqual(41);
    await expect(chart(page, 'cat-trace').locator('circle.step')).toHaveCount(n);
    await expect(section(page, 'cat').locator('.data-table tbody tr')).toHaveCount(n);
    await expect(page.getByTestId('cat-summary')).toContainText('from all responses');

    const tiny = await downloadText(page, 'Export tiny benchmark (CSV)');
    expect(tiny.name).toBe('tiny-benchmark.csv');
    const rows = parseCsv(tiny.text);
    expect(rows[0].slice(0, 5)).toEqual(['item', 'benchmark', 'key', 'n_options', 'question']);
    expect(rows).toHaveLength(n + 1);
    expect(rows.slice(1).every((r) => /^[A-D]$/.test(r[2]) && r[3] === '4')).toBe(true);

    // A shorter test with an SE target stops earlier.
    await page.getByLabel('Max items').fill('5');
    await page.getByRole('button', { name: 'Run adaptive test' }).click();
    await expect(page.getByTestId('cat-count')).toHaveText('5');
    await expect(chart(page, 'cat-trace').locator('circle.step')).toHaveCount(5);
  });

  test('interactive test and a fixed tiny benchmark', async ({ page }) => {
    await page.getByRole('button', { name: 'Start interactive test' }).click();
    const next = page.getByTestId('next-item');
    await expect(next).toContainText('Next item:');
    const first = await next.locator('strong').textContent();
    const probs = page.getByLabel('Option probabilities (A, B, C, D)');
    await probs.fill('0.5, 0.5');
    await page.getByRole('button', { name: 'Submit answer' }).click();
    await waitSection(page, 'interactive', 'error');
    await expect(page.getByTestId('bank-error-interactive')).toContainText('Give 4 numbers');
    await probs.fill('0.1, 0.7, 0.1, 0.1');
    await page.getByRole('button', { name: 'Submit answer' }).click();
    await expect(page.getByTestId('interactive-count')).toHaveText('1');
    await expect(next.locator('strong')).not.toHaveText(first!);
    await probs.fill('1 0 0 0');
    await probs.press('Enter');
    await expect(page.getByTestId('interactive-count')).toHaveText('2');
    await expect(chart(page, 'cat-interactive-trace').locator('circle.step')).toHaveCount(2);

    const fixed = section(page, 'select');
    await fixed.getByLabel('k items').fill('10');
    await fixed.getByRole('button', { name: 'Select items' }).click();
    await waitSection(page, 'select', 'done');
    await expect(fixed.locator('.data-table tbody tr')).toHaveCount(10);
    const csv = await downloadText(page, 'Export selected items (CSV)');
    expect(parseCsv(csv.text)).toHaveLength(11);
  });

  test('a bad bank file shows a clear error; the app stays usable', async ({ page }) => {
    const saved = await downloadText(page, 'Save bank');
    const input = page.getByTestId('bank-file-input');
    const file = (name: string, text: string) => ({
      name,
      mimeType: 'application/json',
      buffer: Buffer.from(text),
    });

    await input.setInputFiles(file('broken.json', '{"schema": "llm-nrm-bank/1", "items": ['));
    await waitSection(page, 'bank', 'error');
    await expect(panel(page)).toHaveAttribute('data-state', 'error');
    await expect(page.getByTestId('bank-error-bank')).toContainText('broken.json: not valid JSON');

    const bad = JSON.parse(saved.text);
    bad.items[3].key = 'Z';
    delete bad.provenance;
    await input.setInputFiles(file('edited.json', JSON.stringify(bad)));
    const err = page.getByTestId('bank-error-bank');
    await expect(err).toContainText('edited.json: not a usable item bank');
    await expect(err).toContainText('provenance must hold dataFiles');
    await expect(err).toContainText(`items[3] ("${bad.items[3].id}"): key "Z"`);
    await expect(page.getByTestId('active-bank')).toContainText('the shown fit');

    // Everything else still works, and a good bank loads afterwards.
    await openTab(page, 'LLMs');
    await expect(chart(page, 'theta-ranking').locator('.llm-row')).toHaveCount(18);
    await openTab(page, 'Bank & CAT');
    await input.setInputFiles(file('bank.json', saved.text));
    await waitSection(page, 'bank', 'done');
    await expect(page.getByTestId('bank-error-bank')).toHaveCount(0);
    await expect(page.getByTestId('active-bank')).toContainText('bank.json');
    await expect(page.getByTestId('active-bank')).toContainText('345 items');
    await page.getByRole('button', { name: 'Use the shown fit as the bank' }).click();
    await expect(page.getByTestId('active-bank')).toContainText('the shown fit');
    await waitState(page, 'fitted');
  });

  test('new LLM data from files is scored against the shown fit', async ({ page }) => {
    await page
      .getByTestId('new-data-input')
      .setInputFiles([demoFile('econ-reading.wide.csv'), demoFile('econ-reading.items.csv')]);
    await waitSection(page, 'score', 'done');
    await expect(page.getByTestId('new-data')).toContainText('18 LLMs × 345 items');
    await expect(section(page, 'score').locator('.data-table tbody tr')).toHaveCount(18);
    await expect(chart(page, 'scored-llms').locator('.llm-row')).toHaveCount(36);
    // The calibration data is still the app's: the other views are unchanged.
    await openTab(page, 'Items');
    await expect(page.locator('.items-view .data-table').first()).toContainText('300 of 345 shown');
  });
});

test('Items: flags column with reasons, filter by flag, flagged items as CSV', async ({ page }) => {
  await open(page, true);
  const view = page.locator('.items-view');
  const table = view.locator('.data-table').first();
  await expect(table.getByRole('button', { name: /^Flags/ })).toBeVisible();

  const filter = page.getByTestId('flag-tools').getByLabel('Flags');
  const anyLabel = await filter.locator('option[value="any"]').textContent();
  const flagged = Number(/\((\d+) items\)/.exec(anyLabel!)![1]);
  expect(flagged).toBeGreaterThan(0);
  expect(flagged).toBeLessThan(345);
  await filter.selectOption('any');
  await expect(table).toContainText(`${flagged} of ${flagged}`);
  const flagCells = table.locator('tbody tr td:last-child');
  await expect(flagCells.first().locator('.flag-chip').first()).toHaveAttribute(
    'title',
    /Evidence: /,
  );

  await filter.selectOption('non-discriminating');
  const rows = await flagCells.allTextContents();
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.every((t) => t.includes('non-discriminating'))).toBe(true);
  await table.getByRole('button', { name: /^Flags/ }).click();
  await expect(table.locator('th[aria-sort="ascending"]')).toContainText('Flags');

  const csv = await downloadText(page, 'Export flagged items (CSV)', view);
  expect(csv.name).toBe('flagged-items.csv');
  const out = parseCsv(csv.text);
  expect(out[0]).toEqual(['item', 'benchmark', 'key', 'flag', 'option', 'reason', 'evidence']);
  expect(out).toHaveLength(rows.length + 1);
  expect(out.slice(1).every((r) => r[3] === 'non-discriminating' && r[5].length > 20)).toBe(true);

  // The selected item lists its flags with the reasons.
  const first = table.locator('tbody tr').first();
  const id = await first.locator('td').first().textContent();
  await first.click();
  const mine = page.getByTestId('item-flags');
  await expect(mine.locator('h4')).toHaveText(`Quality flags of ${id}`);
  await expect(mine.locator('li', { hasText: 'non-discriminating' })).toContainText(
    'does not separate LLMs',
  );
});
