import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { download, open, openTab } from './helpers';

// Each test loads and fits the demo, then runs one evaluation with small settings.
test.describe.configure({ timeout: 150_000 });

const RUN_TIMEOUT = 90_000;

async function openEvaluate(page: Page): Promise<void> {
  await open(page, true);
  await openTab(page, 'Evaluate');
  await expect(page.getByTestId('evaluate')).toHaveAttribute('data-state', 'idle');
}

const section = (page: Page, kind: string) => page.getByTestId(`eval-${kind}`);

/** Picks exactly these models in a section's model checkboxes. */
async function pickModels(s: Locator, models: string[]): Promise<void> {
  await s.getByRole('button', { name: 'None', exact: true }).click();
  for (const m of models) await s.getByRole('checkbox', { name: m, exact: true }).check();
}

async function runToDone(page: Page, s: Locator): Promise<void> {
  await s.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(s).toHaveAttribute('data-state', 'done', { timeout: RUN_TIMEOUT });
  await expect(page.getByTestId('evaluate')).toHaveAttribute('data-state', 'done');
}

/** Serious and critical axe violations on the page as it is now. */
async function seriousViolations(page: Page) {
  const res = await new AxeBuilder({ page }).analyze();
  return res.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, nodes: v.nodes.slice(0, 3).map((n) => n.target) }));
}

/** Plain CSV (no quoted fields): header and rows. */
function parseCsv(text: string): string[][] {
  return text
    .trim()
    .split(/\r\n/)
    .map((l) => l.split(','));
}

test('held-out prediction: table, chart and a CSV that parses', async ({ page }) => {
  await openEvaluate(page);
  const s = section(page, 'cv');
  await pickModels(s, ['llmnrm', '2pl']);
  await s.getByLabel('Folds').fill('2');
  await runToDone(page, s);
  await expect(s.locator('.eval-table tbody tr')).toHaveCount(2);
  await expect(s.locator('tbody tr[data-row="llmnrm"]')).toContainText(/0\.\d{3} ± 0\.\d{3}/);
  await expect(s.locator('figure[data-chart="cv-metrics"] g.cv-bar')).toHaveCount(10);
  // One best value marked per metric column, and a comment on the full model.
  await expect(s.locator('.eval-table td[data-best]')).toHaveCount(5);
  await expect(s.getByTestId('cv-comment')).toContainText('full model (llmnrm)');

  const csv = await download(page, s.getByRole('button', { name: 'CSV' }));
  expect(csv.name).toBe('table1-held-out-prediction.csv');
  const rows = parseCsv(csv.bytes.toString('utf8'));
  expect(rows[0].join(',')).toBe(
    'model,optionAcc_mean,optionAcc_sd,optionLogLoss_mean,optionLogLoss_sd,binaryAcc_mean,binaryAcc_sd,binaryLogLoss_mean,binaryLogLoss_sd,binaryBrier_mean,binaryBrier_sd',
  );
  expect(rows.map((r) => r[0]).slice(1)).toEqual(['llmnrm', '2pl']);
  for (const r of rows.slice(1)) {
    const acc = Number(r[1]);
    expect(acc).toBeGreaterThan(0.5);
    expect(acc).toBeLessThanOrEqual(1);
  }

  const svg = await download(page, s.getByRole('button', { name: 'SVG' }));
  expect(svg.name).toBe('cv-metrics.svg');
  expect(svg.bytes.toString('utf8')).toContain('class="cv-bar"');
  expect(svg.bytes.toString('utf8')).toContain('class="export-title"');
});

test('external validity with the Arena demo: matched names, an edit, and ρ', async ({ page }) => {
  await openEvaluate(page);
  const s = section(page, 'external');
  await s.getByRole('button', { name: 'Load Arena demo scores' }).click();
  await expect(s.getByTestId('scores-source')).toContainText(
    '266 external scores from lmarena_text_2025-08-04.csv · name map models.csv (18 names)',
  );
  const table = s.getByTestId('name-matches');
  await expect(table.locator('tr[data-llm="Llama-3.1-70B"]')).toHaveAttribute('data-how', 'map');
  await expect(s.getByLabel('External name for Llama-3.1-70B')).toHaveValue(
    'Meta-Llama-3.1-70B-Instruct',
  );
  await expect(table).toContainText('8 of 18 LLMs matched');
  await expect(s.getByTestId('unmatched')).toContainText('OLMo-2-13B');

  // The user matches one more by hand.
  await s.getByLabel('External name for Phi-3-7B').selectOption('Phi-3-Small-8k-Instruct');
  await expect(table.locator('tr[data-llm="Phi-3-7B"]')).toHaveAttribute('data-how', 'manual');
  await expect(table).toContainText('9 of 18 LLMs matched');
  await expect(s.getByTestId('unmatched')).not.toContainText('Phi-3-7B');

  await s.getByLabel('Bootstrap resamples').fill('200');
  await runToDone(page, s);
  const rows = s.locator('.eval-table tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText(/θ · llmnrm\s*9\s*-?\d\.\d{3}\s*\d\.\d{3}/);
  await expect(rows.nth(1)).toContainText('raw accuracy');
  await expect(s.locator('figure[data-chart="table2-external-scatter"] circle.point')).toHaveCount(
    9,
  );
  // The tab with a name table, results and a chart stays accessible.
  expect(await seriousViolations(page)).toEqual([]);
});

test('external validity from a picked model,score CSV: exact and normalised names', async ({
  page,
}) => {
  await openEvaluate(page);
  const s = section(page, 'external');
  const csv = (text: string) => ({
    name: 'scores.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(text),
  });
  await s.getByTestId('scores-input').setInputFiles(csv('model,score\n'));
  await expect(s.getByRole('alert')).toContainText(
    'expected a header row and at least one data row',
  );
  await s
    .getByTestId('scores-input')
    .setInputFiles(
      csv('model,score\nLlama-3.1-70B,10\nQwen2.5-72B,12\nqwen2.5-0.5b-instruct,1\nOLMo-2-7B,3\n'),
    );
  await expect(s.getByTestId('scores-source')).toHaveText('4 external scores from scores.csv');
  const table = s.getByTestId('name-matches');
  await expect(table).toContainText('4 of 18 LLMs matched');
  await expect(table.locator('tr[data-llm="Qwen2.5-72B"]')).toHaveAttribute('data-how', 'exact');
  await expect(table.locator('tr[data-llm="Qwen2.5-0.5B"]')).toHaveAttribute(
    'data-how',
    'normalised',
  );
  await runToDone(page, s);
  const first = s.locator('.eval-table tbody tr').first().locator('td');
  await expect(first.nth(0)).toHaveText('θ · llmnrm');
  await expect(first.nth(1)).toHaveText('4');
  await expect(first.nth(2)).toHaveText(/^-?\d\.\d{3}$/);
});

test('wrong answers alone: binary-only and wrong-only agreement', async ({ page }) => {
  await openEvaluate(page);
  const s = section(page, 'wrong');
  await s.getByLabel('Folds').fill('2');
  await runToDone(page, s);
  const rows = s.locator('.eval-table tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('Correctness only');
  await expect(rows.nth(1)).toContainText('Wrong answers only');
  await expect(rows.first()).toContainText(/\d\.\d{3} ± \d\.\d{3}/);
  await expect(s.locator('figure[data-chart="wrong-answers"] g.wrong-bar')).toHaveCount(4);
});

test('information and distractors per benchmark from the fit on show', async ({ page }) => {
  await openEvaluate(page);
  const s = section(page, 'info');
  await runToDone(page, s);
  const rows = s.locator('.eval-table tbody tr');
  await expect(rows).toHaveCount(3);
  await expect(rows.last()).toContainText(/^all\s*345/);
  await expect(rows.last()).toContainText(/\+\d+%/);
  await expect(s.locator('figure[data-chart="fig2a-info-by-benchmark"] g.benchmark')).toHaveCount(
    3,
  );
  await expect(
    s.locator('figure[data-chart="fig2b-distractors-by-benchmark"] g.benchmark'),
  ).toHaveCount(3);
});

test('compression: τ against k per model and the smallest k', async ({ page }) => {
  await openEvaluate(page);
  const s = section(page, 'compress');
  await pickModels(s, ['llmnrm', '2pl']);
  await s.getByLabel('Folds').fill('2');
  await s.getByLabel('Item budgets').fill('5, 10, 20');
  await runToDone(page, s);
  await expect(s.locator('.eval-table tbody tr')).toHaveCount(6);
  await expect(s.getByTestId('smallest-k').locator('li')).toHaveCount(2);
  await expect(s.getByTestId('smallest-k')).toContainText('llmnrm: smallest k with τ ≥ 0.85');
  const fig = s.locator('figure[data-chart="fig3a-compression"]');
  await expect(fig.locator('circle.point')).toHaveCount(6);
  await expect(fig.locator('.target line')).toHaveCount(1);
});

test('calibration with fewer LLMs: log-loss against n', async ({ page }) => {
  await openEvaluate(page);
  const s = section(page, 'calibrate');
  await pickModels(s, ['llmnrm', '2pl']);
  await s.getByLabel('Fleet sizes').fill('5, all');
  await s.getByLabel('Draws').fill('1');
  await runToDone(page, s);
  const rows = s.locator('.eval-table tbody tr');
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(1)).toContainText('all (13)');
  const fig = s.locator('figure[data-chart="fig3b-calibration"]');
  await expect(fig.locator('circle.point')).toHaveCount(4);
  await expect(fig.locator('path.band')).toHaveCount(2);
});

test('cancelling a run returns to a usable state', async ({ page }) => {
  await openEvaluate(page);
  const cv = section(page, 'cv');
  await cv.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(cv).toHaveAttribute('data-state', 'running');
  await expect(cv.getByTestId('eval-progress')).toContainText(/fold \d\/5: \S+ · \d+ of 50 done/);
  // Another evaluation waits while this one runs.
  await expect(
    section(page, 'info').getByRole('button', { name: 'Run', exact: true }),
  ).toBeDisabled();
  await cv.getByRole('button', { name: 'Cancel' }).click();
  await expect(cv).toHaveAttribute('data-state', 'cancelled');
  await expect(page.getByTestId('evaluate')).toHaveAttribute('data-state', 'cancelled');
  await expect(cv.getByRole('status')).toContainText('Cancelled.');
  await expect(cv.getByTestId('eval-progress')).toHaveCount(0);

  // The worker is free again: another run goes to the end.
  await runToDone(page, section(page, 'info'));
  await expect(cv.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
});

test('settings are checked before a run starts', async ({ page }) => {
  await openEvaluate(page);
  const s = section(page, 'cv');
  await s.getByLabel('Folds').fill('1');
  await s.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(s).toHaveAttribute('data-state', 'error');
  await expect(s.getByRole('alert')).toContainText('Folds must be a whole number ≥ 2');
});
