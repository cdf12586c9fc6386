import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';

export const DEMO = path.resolve('public/demo');
export const FIXTURES = path.resolve('e2e/fixtures');
export const demoFile = (name: string) => path.join(DEMO, name);
export const fixture = (name: string) => path.join(FIXTURES, name);

/** Waits until the app root reports `state` (fits of the demo take ~1 s, big ones longer). */
export async function waitState(page: Page, state: string, timeout = 45_000): Promise<void> {
  await expect(page.locator(`.app[data-state="${state}"]`)).toBeVisible({ timeout });
}

/**
 * Opens the app without the demo (`?nodemo`, and `?noautofit` so that loading
 * files stops at the loaded state) or with it, fitted.
 */
export async function open(page: Page, withDemo = false): Promise<void> {
  page.on('pageerror', (e) => console.log(`pageerror: ${e.message}`));
  await page.goto(withDemo ? '/' : '/?nodemo&noautofit');
  await waitState(page, withDemo ? 'fitted' : 'empty');
}

/** Picks files through the (hidden) file input. */
export async function pickFiles(page: Page, files: string[]): Promise<void> {
  await page.getByTestId('file-input').setInputFiles(files);
}

/** Picks the demo's wide file (and its items file) and waits until they are loaded, unfitted. */
export async function loadDemoFiles(page: Page, withItems = true): Promise<void> {
  const items = withItems ? [demoFile('econ-reading.items.csv')] : [];
  await pickFiles(page, [demoFile('econ-reading.wide.csv'), ...items]);
  await waitState(page, 'loaded');
}

/**
 * Clicks `trigger` and returns the download's name and bytes. Headless
 * Chromium now and then drops one of many downloads from a page after the
 * click handler ran (seen under load: the anchor clicked, no download begun;
 * CI once waited 3 minutes on the privacy test's fit.json export), so a click
 * that yields nothing within `firstWaitMs` is made once more.
 */
export async function download(
  page: Page,
  trigger: Locator,
  firstWaitMs = 20_000,
): Promise<{ name: string; bytes: Buffer }> {
  for (let attempt = 0; ; attempt++) {
    const wait = attempt === 0 ? { timeout: firstWaitMs } : {};
    const pending = page.waitForEvent('download', wait).catch(() => null);
    await trigger.click();
    const dl = await pending;
    if (dl) return { name: dl.suggestedFilename(), bytes: readFileSync(await dl.path()) };
    if (attempt > 0) throw new Error('the click produced no download, twice');
    console.log('a click produced no download; clicking again');
  }
}

/** Opens a tab of the results by its name. */
export async function openTab(page: Page, name: string): Promise<void> {
  await page.getByRole('tab', { name }).click();
  await expect(page.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
}

/** The chart figure with this export name (see Chart's data-chart). */
export const chart = (page: Page, name: string) => page.locator(`figure[data-chart="${name}"]`);
export const chartStartingWith = (page: Page, prefix: string) =>
  page.locator(`figure[data-chart^="${prefix}"]`);

/** Drops files on the drop zone with a synthetic drag-and-drop event. */
export async function dropFiles(page: Page, paths: string[]): Promise<void> {
  const files = paths.map((p) => ({ name: path.basename(p), text: readFileSync(p, 'utf8') }));
  await page.getByTestId('dropzone').evaluate((el, list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([f.text], f.name, { type: 'text/plain' }));
    el.dispatchEvent(
      new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }),
    );
    el.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, files);
}

/** Starts an Adam fit of `steps` steps with the settings shown, without waiting for it. */
export async function startAdamFit(page: Page, steps: number): Promise<void> {
  await page.getByLabel('Optimiser').selectOption('adam');
  await page.getByLabel('Steps').fill(String(steps));
  await page.getByRole('button', { name: 'Fit', exact: true }).click();
}

/** Completed fits in the fit list. */
export const fitRadios = (page: Page) => page.locator('.fit-list input[type=radio]');

/** Picks a model and fits it, waiting until the new fit is listed and `fitted`. */
export async function fitModel(page: Page, model: string): Promise<void> {
  const before = await fitRadios(page).count();
  await page.getByLabel('Model', { exact: true }).selectOption(model);
  await page.getByRole('button', { name: 'Fit', exact: true }).click();
  await expect(fitRadios(page)).toHaveCount(before + 1, { timeout: 60_000 });
  await waitState(page, 'fitted');
}

/** RFC 4180 rows (quotes, doubled quotes, CRLF or LF, newlines inside quotes). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = '';
  };
  const endRow = () => {
    endCell();
    rows.push(row);
    row = [];
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted && ch === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (ch === '"') quoted = !quoted;
    else if (quoted) cell += ch;
    else if (ch === ',') endCell();
    else if (ch === '\n') endRow();
    else if (ch !== '\r') cell += ch;
  }
  if (cell || row.length) endRow();
  return rows;
}

/**
 * Loads the demo without fitting (the page opened with ?noautofit), fits it
 * with a step cap far under the ~135 steps the default fit needs, and returns
 * the convergence banner, which says "not converged".
 */
export async function cappedDemoFit(page: Page, steps = 30): Promise<Locator> {
  await pickFiles(page, [demoFile('econ-reading.wide.csv'), demoFile('econ-reading.items.csv')]);
  await waitState(page, 'loaded');
  await page.getByLabel('Max iterations').fill(String(steps));
  await page.getByRole('button', { name: 'Fit', exact: true }).click();
  await waitState(page, 'fitted', 90_000);
  const status = page.getByTestId('fit-status');
  await expect(status).toHaveAttribute('data-converged', 'false');
  return status;
}
