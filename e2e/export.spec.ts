import { writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import {
  chart,
  chartStartingWith,
  demoFile,
  download,
  fitRadios,
  open,
  openTab,
  parseCsv,
  pickFiles,
  waitState,
} from './helpers';

/** Parses an SVG document in the page; returns what the checks need. */
function inspectSvg(page: Page, text: string) {
  return page.evaluate((t) => {
    const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
    const root = doc.documentElement;
    return {
      error: doc.getElementsByTagName('parsererror').length > 0,
      tag: root.tagName,
      ns: root.namespaceURI,
      width: Number(root.getAttribute('width')),
      height: Number(root.getAttribute('height')),
      traces: doc.querySelectorAll('path.trace').length,
      rows: doc.querySelectorAll('.llm-row').length,
    };
  }, text);
}

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
function pngSize(bytes: Buffer) {
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(bytes.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

test('charts export as SVG and 2× PNG, tables as CSV, the fit as JSON', async ({ page }) => {
  await open(page, true);
  const icc = chartStartingWith(page, 'icc-');

  const svg = await download(page, icc.getByRole('button', { name: 'SVG' }));
  expect(svg.name).toMatch(/^icc-.*\.svg$/);
  const s = await inspectSvg(page, svg.bytes.toString('utf8'));
  expect(s).toMatchObject({
    error: false,
    tag: 'svg',
    ns: 'http://www.w3.org/2000/svg',
    traces: 4,
  });

  const png = await download(page, icc.getByRole('button', { name: 'PNG' }));
  expect(png.name).toMatch(/\.png$/);
  const size = pngSize(png.bytes);
  expect(Math.abs(size.width - 2 * s.width)).toBeLessThanOrEqual(2);
  expect(Math.abs(size.height - 2 * s.height)).toBeLessThanOrEqual(2);

  const csv = await download(
    page,
    page.locator('.items-view').getByRole('button', { name: 'CSV', exact: true }).first(),
  );
  const rows = parseCsv(csv.bytes.toString('utf8'));
  expect(rows[0]).toEqual([
    'id',
    'benchmark',
    'key',
    'b',
    'aKey',
    'info',
    'informative',
    'accuracy',
    'flags',
  ]);
  expect(rows).toHaveLength(346);
  expect(Number.isFinite(Number(rows[1][3]))).toBe(true);

  const json = await download(page, page.getByRole('button', { name: 'Export fit.json' }));
  const fit = JSON.parse(json.bytes.toString('utf8'));
  expect(fit.schema).toBe('llm-nrm-fit/1');
  expect(fit.llms).toHaveLength(18);
  expect(fit.items).toHaveLength(345);

  await openTab(page, 'LLMs');
  const ranking = chart(page, 'theta-ranking');
  const rsvg = await download(page, ranking.getByRole('button', { name: 'SVG' }));
  expect((await inspectSvg(page, rsvg.bytes.toString('utf8'))).rows).toBe(18);
  const rpng = pngSize((await download(page, ranking.getByRole('button', { name: 'PNG' }))).bytes);
  expect(rpng.width).toBe(1280);
});

test('a fit.json loaded with its data restores every view without refitting', async ({
  page,
}, info) => {
  await open(page, true);
  const json = await download(page, page.getByRole('button', { name: 'Export fit.json' }));
  const fitFile = info.outputPath('demo.fit.json');
  writeFileSync(fitFile, json.bytes);
  const steps = await page.getByTestId('fit-info').textContent();

  await page.goto('/?nodemo');
  await waitState(page, 'empty');
  await pickFiles(page, [
    demoFile('econ-reading.wide.csv'),
    demoFile('econ-reading.items.csv'),
    fitFile,
  ]);
  await waitState(page, 'fitted');
  await expect(page.getByRole('radio', { name: /demo\.fit\.json/ })).toBeChecked();
  await expect(page.getByTestId('fit-info')).toHaveText(steps!);
  await expect(chartStartingWith(page, 'icc-').locator('path.trace')).toHaveCount(4);
  await openTab(page, 'LLMs');
  await expect(chart(page, 'theta-ranking').locator('.llm-row')).toHaveCount(18);

  // The same fit against other data is refused with a clear message.
  await pickFiles(page, [demoFile('econ-reading-4orders.wide.csv'), fitFile]);
  await waitState(page, 'error');
  await expect(page.getByTestId('error')).toContainText('does not match the loaded data');
  await expect(fitRadios(page)).toHaveCount(0);
});
