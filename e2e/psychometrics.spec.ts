import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import Papa from 'papaparse';
import { writeWideCsv } from '../src/core/data/write';
import { simulateNominal } from '../src/core/model/simulate';
import { download, open, openTab, pickFiles, startAdamFit, waitState } from './helpers';

test.describe('Psychometrics view on the demo', () => {
  test('item fit, reliability, classical tables and DIF by family, with CSV export', async ({
    page,
  }) => {
    await open(page, true);
    await openTab(page, 'Psychometrics');
    const view = page.getByTestId('psychometrics');
    await expect(view.locator('[data-chart="item-fit"] circle[data-item]').first()).toBeAttached();
    const itemTable = view.locator('section', { has: page.locator('#itemfit-h') });
    const csv = await download(page, itemTable.getByRole('button', { name: 'CSV' }));
    expect(csv.name).toBe('itemfit.csv');
    const parsed = Papa.parse<Record<string, string>>(csv.bytes.toString('utf8'), {
      header: true,
      skipEmptyLines: true,
    });
    expect(parsed.meta.fields?.slice(0, 7).join(',')).toBe(
      'item,benchmark,infit,outfit,z_infit,z_outfit,n',
    );
    expect(parsed.data).toHaveLength(345);
    await expect(
      view.getByRole('region', { name: 'Reliability', exact: true }).last(),
    ).toContainText('naep-reading');
    await view.getByRole('button', { name: 'Group by model family' }).click();
    await expect(view.getByTestId('dif-summary')).toContainText(/of \d+ item × group rows flagged/);
    await expect(view.locator('[data-chart="dif-effect"] g[data-item]').first()).toBeAttached();
  });
});

/**
 * The Psychometrics tab of a large simulated file (189 LLMs × 5,000 items, the
 * paper's full shape in LLMs): its tables are computed in the worker, so the
 * main thread never blocks for more than 250 ms while they compute (long tasks
 * seen by a PerformanceObserver in the page, from the tab's click until the
 * worker's tables arrive).
 */
test('the Psychometrics tab of 189 × 5,000 computes its tables off the main thread', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const { data } = simulateNominal({ J: 189, I: 5000, seed: 29, concentration: 50 });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'llmnrm-psych-'));
  const file = path.join(dir, 'sim.wide.csv');
  writeFileSync(file, writeWideCsv(data));
  await open(page);
  await pickFiles(page, [file]);
  await waitState(page, 'loaded', 90_000);
  await startAdamFit(page, 2);
  await waitState(page, 'fitted', 120_000);
  await expect(page.getByRole('tab', { name: 'Psychometrics' })).toBeVisible({ timeout: 60_000 });
  // From a light tab: tearing down the 5,000-row Items table is not the tables' computing.
  await openTab(page, 'Evaluate');
  await page.evaluate(() => {
    const w = { longTasks: [] as number[][], psychDone: null as number | null };
    (window as Window & { probe?: typeof w }).probe = w;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.longTasks.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask' });
    // The moment the worker's tables replace the "computing" status.
    const seen = new MutationObserver(() => {
      if (w.psychDone === null && document.querySelector('[data-testid="psychometrics"]'))
        w.psychDone = performance.now();
    });
    seen.observe(document.body, { childList: true, subtree: true });
  });
  const t0 = await page.evaluate(() => performance.now());
  await openTab(page, 'Psychometrics');
  const view = page.getByTestId('psychometrics');
  await expect(view.locator('[data-chart="item-fit"] circle[data-item]').first()).toBeAttached({
    timeout: 120_000,
  });
  const { longTasks, psychDone } = await page.evaluate(() => {
    const w = (window as Window & { probe?: { longTasks: number[][]; psychDone: number } }).probe;
    return { longTasks: w?.longTasks ?? [], psychDone: w?.psychDone ?? NaN };
  });
  console.log(
    `psychometrics 189 × 5,000: tables after ${(psychDone - t0).toFixed(0)} ms; long tasks ` +
      JSON.stringify(longTasks.map(([s, d]) => [Math.round(s - t0), Math.round(d)])),
  );
  expect(psychDone - t0).toBeGreaterThan(0);
  // Every task from the click until the tables arrive (drawing them comes after): none may
  // block for long. Computed on the page, the tables were one task of seconds; the tab's own
  // first render measured 61–83 ms on a loaded CI machine (under 50 ms idle), so the bound is
  // 250 ms: it tells the two apart without depending on how fast or busy the machine is.
  expect(longTasks.filter(([s, d]) => s >= t0 && s < psychDone && d > 250)).toEqual([]);
});
