import AxeBuilder from '@axe-core/playwright';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { demoFile, download, open } from './helpers';

const SECTIONS = [
  'data',
  'fit',
  'ranking',
  'flagged',
  'information',
  'psychometrics',
  'subset',
  'cv',
  'appendix',
];

/** The lines of two reports that differ. */
function differing(a: string, b: string): string[][] {
  const x = a.split('\n');
  const y = b.split('\n');
  expect(y).toHaveLength(x.length);
  return x.flatMap((line, q) => (line === y[q] ? [] : [[line, y[q]]]));
}

test("the app's report: offline, no script error, axe, every section, prints without cutting a chart, the CLI's bytes", async ({
  page,
  context,
}) => {
  // The demo's first fit (with its prior-strength search), the report, a PDF and the CLI on a loaded 2-core machine.
  test.setTimeout(300_000);
  await open(page, true);
  const json = await download(page, page.getByRole('button', { name: 'Export fit.json' }));
  const report = await download(page, page.getByRole('button', { name: 'Download report' }));
  await expect(page.getByTestId('report-status')).toHaveAttribute('data-state', 'done');
  expect(report.name).toMatch(/\.report\.html$/);
  const html = report.bytes.toString('utf8');

  const dir = mkdtempSync(path.join(os.tmpdir(), 'report-e2e-'));
  const file = path.join(dir, report.name);
  writeFileSync(file, report.bytes);
  const fitPath = path.join(dir, 'fit.json');
  writeFileSync(fitPath, json.bytes);

  // The same fit through the CLI gives the same file but for the date line.
  const cliOut = path.join(dir, 'cli.html');
  execFileSync(
    'node',
    [
      'bin/llm-nrm.js',
      'report',
      demoFile('econ-reading.wide.csv'),
      '--items',
      demoFile('econ-reading.items.csv'),
      '--fit',
      fitPath,
      '--out',
      cliOut,
    ],
    { stdio: 'pipe' },
  );
  const diff = differing(html, readFileSync(cliOut, 'utf8'));
  expect(diff).toHaveLength(1);
  expect(diff[0][0]).toMatch(/^<p class="date">Generated \d{4}-\d\d-\d\dT/);

  // Opened from disk with every request off the file blocked.
  const viewer = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  viewer.on('request', (r) => requests.push(r.url()));
  viewer.on('pageerror', (e) => errors.push(e.message));
  viewer.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await viewer.route('**', (route) =>
    route.request().url().startsWith('file:') ? route.continue() : route.abort(),
  );
  await viewer.goto(`file://${file}`);
  await expect(viewer.locator('h1')).toContainText('Benchmark audit: 18 LLMs × 345 items');
  expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
  expect(errors).toEqual([]);
  expect(await viewer.locator('script').count()).toBe(0);
  for (const id of SECTIONS) {
    const s = viewer.locator(`section#${id}`);
    await expect(s.locator('h2').first(), id).toBeVisible();
    await expect(s.locator('p.reading'), id).toHaveCount(1);
  }

  const axe = await new AxeBuilder({ page: viewer }).analyze();
  expect(
    axe.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.slice(0, 3).map((n) => n.target),
    })),
  ).toEqual([]);

  // Printed: every figure (and each flagged item) is kept on one page; the PDF is made.
  await viewer.emulateMedia({ media: 'print' });
  const breaks = await viewer.$$eval('figure, article.flagged', (els) =>
    els.map((e) => getComputedStyle(e).breakInside),
  );
  expect(breaks.length).toBeGreaterThan(40);
  expect(new Set(breaks)).toEqual(new Set(['avoid']));
  const pdf = await viewer.pdf({ format: 'A4', printBackground: true });
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;
  expect(pages).toBeGreaterThan(5);
  expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
});
