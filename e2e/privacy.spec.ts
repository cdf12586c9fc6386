import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type BrowserContext, type Locator, type Page } from '@playwright/test';
import {
  chart,
  demoFile,
  download,
  fitModel,
  open,
  openTab,
  pickFiles,
  waitState,
} from './helpers';

/**
 * Everything runs in the tab: no request may leave the page's origin. Records
 * every request of the browser context (the page and its workers) and fails
 * on any to another origin; data: and blob: URLs stay in the browser.
 */
function recordRequests(context: BrowserContext) {
  const urls: { url: string; type: string }[] = [];
  context.on('request', (r) => urls.push({ url: r.url(), type: r.resourceType() }));
  return urls;
}

function foreign(urls: { url: string }[], origin: string): string[] {
  return urls
    .map((u) => u.url)
    .filter((u) => !u.startsWith(`${origin}/`) && !/^(data|blob):/.test(u));
}

/** Clicks `button` and returns the name of the file it downloads (one retry: helpers.download). */
async function exportName(page: Page, button: Locator): Promise<string> {
  return (await download(page, button, 10_000)).name;
}

/** Clicks every SVG, PNG and CSV export button in view, waiting for each download. */
async function exportAll(page: Page): Promise<string[]> {
  const names: string[] = [];
  for (const label of ['SVG', 'PNG', 'CSV']) {
    const buttons = page.locator('main').getByRole('button', { name: label, exact: true });
    const n = await buttons.count();
    for (let i = 0; i < n; i++) names.push(await exportName(page, buttons.nth(i)));
  }
  return names;
}

const directive = (csp: string, name: string) =>
  csp
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith(`${name} `)) ?? '';

test('a whole session sends no request to another origin', async ({ page, context, baseURL }) => {
  test.setTimeout(180_000);
  const origin = new URL(baseURL!).origin;
  const urls = recordRequests(context);
  await open(page, true); // first visit: the demo is fetched (by the worker) and fitted

  const exported: string[] = [];
  const tabs = page.getByRole('tablist', { name: 'Views' }).getByRole('tab');
  // The views draw once the fit's item statistics arrive, a moment after 'fitted'.
  await expect(tabs.filter({ hasText: 'LLMs' })).toBeVisible();
  const tabNames = await tabs.allTextContents();
  expect(tabNames).toEqual(expect.arrayContaining(['Items', 'Information', 'Distractors', 'LLMs']));
  for (const name of tabNames) {
    await openTab(page, name);
    if (name === 'LLMs') await chart(page, 'theta-ranking').locator('.llm-row').first().click();
    exported.push(...(await exportAll(page)));
  }
  exported.push(await exportName(page, page.getByRole('button', { name: 'Export fit.json' })));
  // A second fit (the fits table and its CSV), and a tfjs-wasm fit (its .wasm binary).
  await openTab(page, 'Items');
  await page.getByLabel('Engine').selectOption('tfjs-wasm');
  await page.getByLabel('Optimiser').selectOption('adam');
  await page.getByLabel('Steps').fill('5');
  await fitModel(page, 'nrm-soft');
  const fitsCsv = page
    .getByRole('table', { name: 'Comparison of fits' })
    .locator('xpath=ancestor::div[contains(@class,"data-table")]')
    .getByRole('button', { name: 'CSV' });
  exported.push(await exportName(page, fitsCsv));
  // A reload restores the session from this browser's storage.
  await page.reload();
  await waitState(page, 'fitted');

  console.log(`${urls.length} requests, ${exported.length} exports; tabs: ${tabNames.join(', ')}`);
  expect(exported.filter((n) => n.endsWith('.svg')).length).toBeGreaterThan(5);
  expect(exported.filter((n) => n.endsWith('.png')).length).toBeGreaterThan(5);
  expect(exported.some((n) => n.endsWith('.csv'))).toBe(true);
  expect(exported.some((n) => n.endsWith('.fit.json'))).toBe(true);
  // The recording sees the worker's own requests: the demo and the wasm binary.
  expect(urls.some((u) => u.url.endsWith('/demo/econ-reading.wide.csv'))).toBe(true);
  expect(urls.some((u) => u.url.endsWith('.wasm'))).toBe(true);
  expect(foreign(urls, origin)).toEqual([]);
  // Fonts are the system's: none is downloaded, from anywhere.
  expect(urls.filter((u) => u.type === 'font')).toEqual([]);
  const font = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
  expect(font).toMatch(/^system-ui/);
});

test('the built page and the preview server carry the strict CSP', async ({ page, request }) => {
  const res = await page.goto('/?nodemo');
  const header = res!.headers()['content-security-policy'];
  const meta = await page
    .locator('meta[http-equiv="Content-Security-Policy"]')
    .getAttribute('content');
  console.log(`Content-Security-Policy: ${header}`);
  for (const csp of [header, meta!]) {
    expect(csp).toBeTruthy();
    expect(directive(csp, 'connect-src')).toMatch(/^connect-src 'self'/);
    const script = directive(csp, 'script-src');
    expect(script).toMatch(/^script-src 'self'/);
    expect(script).not.toContain("'unsafe-inline'");
    expect(script).not.toMatch(/'unsafe-eval'/);
    expect(directive(csp, 'default-src')).toBe("default-src 'self'");
    expect(directive(csp, 'font-src')).toBe("font-src 'self'");
  }
  expect(meta).toBe(header);
  // No inline scripts for the policy to refuse: every script is a file of this origin.
  const inline = await page.locator('script:not([src])').count();
  expect(inline).toBe(0);
  // The stylesheets name no font files and no other origin.
  const sheets = await page
    .locator('link[rel="stylesheet"]')
    .evaluateAll((ls) => ls.map((l) => (l as HTMLLinkElement).href));
  for (const href of sheets) {
    const css = await (await request.get(href)).text();
    expect(css).not.toContain('@font-face');
    expect(css).not.toMatch(/url\(\s*['"]?(https?:)?\/\//);
  }
});

/** The demo with two LLMs and an item renamed to hostile strings, and a hostile question. */
function hostileFiles(dir: (name: string) => string) {
  const IMG = '<img src=x onerror=alert(1)>';
  const LINK = '=HYPERLINK("http://x")';
  const csvCell = (s: string) => `"${s.replace(/"/g, '""')}"`;
  const wide = readFileSync(demoFile('econ-reading.wide.csv'), 'utf8')
    .replace(/^Llama-3\.2-1B,/gm, `${csvCell(IMG)},`)
    .replace(/^Qwen2\.5-72B,/gm, `${csvCell(LINK)},`)
    .replace(/,NAEP-E407201,/g, `,${csvCell(LINK)},`);
  const items = readFileSync(demoFile('econ-reading.items.csv'), 'utf8').replace(
    /^NAEP-E407201,naep-economics,A,4,[^,]*,/m,
    `${csvCell(LINK)},naep-economics,A,4,${csvCell(`<b>bold</b> ${IMG}`)},`,
  );
  const files = [dir('hostile.wide.csv'), dir('hostile.items.csv')];
  writeFileSync(files[0], wide);
  writeFileSync(files[1], items);
  return { files, IMG, LINK };
}

test('hostile LLM and item names stay text: in the UI, in SVG export and in CSV export', async ({
  page,
}) => {
  // Not under test-results/: a colleague's run empties that folder when it starts.
  const dir = mkdtempSync(path.join(tmpdir(), 'nrm-e2e-'));
  const { files, IMG, LINK } = hostileFiles((n) => path.join(dir, n));
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const toX: string[] = [];
  page.on('request', (r) => {
    if (/\/x$|\/\/x\//.test(r.url())) toX.push(r.url());
  });
  await open(page);
  await pickFiles(page, files);
  await waitState(page, 'loaded');
  await page.getByRole('button', { name: 'Fit', exact: true }).click();
  await waitState(page, 'fitted');

  // Items: the hostile item id and question are shown as text.
  const table = page.locator('.items-view .data-table').first();
  await table.getByRole('searchbox').fill('HYPERLINK');
  await expect(table).toContainText('1 of 345');
  await expect(table).toContainText(LINK);
  await expect(page.getByTestId('item-detail')).toContainText(`<b>bold</b> ${IMG}`);
  await expect(page.getByTestId('item-detail').locator('b, img')).toHaveCount(0);

  // CSV: the formula-looking id is neutralised with a leading apostrophe.
  const csv = (await download(page, table.getByRole('button', { name: 'CSV' }))).bytes.toString(
    'utf8',
  );
  expect(csv).toContain(`"'=HYPERLINK(""http://x"")"`);
  expect(csv).not.toMatch(/(^|,)"?=HYPERLINK/m);

  // LLMs: the names are text in the chart and in its SVG export.
  await openTab(page, 'LLMs');
  const ranking = chart(page, 'theta-ranking');
  await expect(ranking).toContainText(IMG);
  await expect(ranking).toContainText(LINK);
  await expect(page.locator('img')).toHaveCount(0);
  const svg = (await download(page, ranking.getByRole('button', { name: 'SVG' }))).bytes.toString(
    'utf8',
  );
  expect(svg).toContain('&lt;img src=x onerror=alert(1)&gt;');
  expect(svg).not.toContain('<img');
  const parsed = await page.evaluate((t) => {
    const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
    return {
      error: doc.getElementsByTagName('parsererror').length,
      imgs: doc.getElementsByTagName('img').length,
      text: doc.documentElement.textContent ?? '',
    };
  }, svg);
  expect(parsed).toMatchObject({ error: 0, imgs: 0 });
  expect(parsed.text).toContain(IMG);
  expect(parsed.text).toContain(LINK);

  expect(dialogs).toEqual([]);
  expect(toX).toEqual([]);
  rmSync(dir, { recursive: true, force: true });
});
