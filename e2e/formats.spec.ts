/**
 * Issue 13 in the browser: each evaluation tool's per-sample results load by a
 * folder pick or a drop, are fitted on load (auto-fit), and give the objective
 * of a wide CSV of the same cells. The files are written here by the builders
 * the unit tests use (test/support/data/results.ts, harnessFiles.ts), so
 * each has the tool's own schema. The reference wide CSV carries the ids the
 * reader gave the cells (read in Node), so both fits share the held-out split
 * that chooses the prior strength and must agree to 1e-6 relative.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { loadDataset } from '../src/core/data/load';
import { cellsOf, harnessParquet, wideCsvLike } from '../test/support/data/harnessFiles';
import {
  helmState,
  inspectEval,
  lightevalParquet,
  metaParquet,
  openCompassPpl,
  type AnyFile,
} from '../test/support/data/results';
import { simulateNominal } from '../src/core/model/simulate';
import { chartStartingWith, download, pickFiles, waitState } from './helpers';

test.describe.configure({ timeout: 120_000 });

const sim = simulateNominal({ J: 6, I: 40, K: 4, seed: 5, concentration: 60 }).data;
const cells = cellsOf(sim);

/** Writes the files under a fresh folder; returns the folder and the written paths. */
function writeAll(files: AnyFile[], tag: string): { root: string; paths: string[] } {
  const root = mkdtempSync(path.join(os.tmpdir(), `e2e-${tag}-`));
  const paths = files.map((f) => {
    const p = path.join(root, 'results', f.name);
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, f.bytes ?? f.text!);
    return p;
  });
  return { root, paths };
}

/** Drops files (binary or text) on the drop zone with a synthetic drag-and-drop event. */
async function dropBytes(page: Page, paths: string[]): Promise<void> {
  const files = paths.map((p) => ({
    name: path.basename(p),
    b64: readFileSync(p).toString('base64'),
  }));
  await page.getByTestId('dropzone').evaluate((el, list) => {
    const dt = new DataTransfer();
    for (const f of list) {
      const bin = atob(f.b64);
      const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
      dt.items.add(new File([bytes], f.name));
    }
    el.dispatchEvent(
      new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }),
    );
    el.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, files);
}

interface ShownFit {
  objective: number;
  converged: boolean;
  settings: { priorStrength?: number };
}

/** A clean page (no demo, nothing restored; auto-fit on load as a user gets it). */
async function freshPage(page: Page): Promise<void> {
  await page.goto('/?nodemo');
  await waitState(page, 'empty');
}

/** Waits for the auto-fit of what was just loaded and returns the shown fit.json. */
async function fitted(page: Page, J: number, I: number): Promise<ShownFit> {
  await waitState(page, 'fitted', 90_000);
  await expect(page.getByTestId('summary-J')).toHaveText(String(J));
  await expect(page.getByTestId('summary-I')).toHaveText(String(I));
  await expect(chartStartingWith(page, 'icc-').locator('path.trace')).toHaveCount(4);
  const json = await download(page, page.getByRole('button', { name: 'Export fit.json' }));
  return JSON.parse(json.bytes.toString('utf8')) as ShownFit;
}

/** Node's reading of the files: the ids the reference wide CSV must carry. */
async function readInNode(files: AnyFile[]) {
  return loadDataset(
    files.map((f) =>
      f.bytes
        ? { name: f.name, blob: new Blob([new Uint8Array(f.bytes)]) }
        : { name: f.name, text: f.text! },
    ),
  );
}

type How = 'folder' | 'drop' | 'pick';
const cases: { name: string; files: () => AnyFile[]; how: How }[] = [
  { name: 'lighteval 0.7 details Parquet', files: () => lightevalParquet(cells), how: 'folder' },
  { name: 'Meta eval details Parquet', files: () => metaParquet(cells), how: 'folder' },
  { name: 'lm-evaluation-harness Parquet', files: () => harnessParquet(cells), how: 'folder' },
  {
    name: 'Inspect .eval (DEFLATE and Zstandard members)',
    files: () => [...inspectEval(cells, 8).slice(0, 3), ...inspectEval(cells, 93).slice(3)],
    how: 'drop',
  },
  { name: 'HELM scenario_state.json', files: () => helmState(cells), how: 'folder' },
  { name: 'OpenCompass PPL predictions', files: () => openCompassPpl(cells), how: 'folder' },
];

for (const c of cases) {
  test(`${c.name}: loaded by ${c.how === 'folder' ? 'folder pick' : c.how}, fitted, the wide CSV's objective`, async ({
    page,
  }) => {
    page.on('pageerror', (e) => console.log(`pageerror: ${e.message}`));
    const files = c.files();
    const { root, paths } = writeAll(files, 'fmt');
    await freshPage(page);
    if (c.how === 'folder') {
      // The folder holding the tool's output, as a user picks it (models named by folders).
      await page.getByTestId('folder-input').setInputFiles(path.join(root, 'results'));
    } else if (c.how === 'drop') await dropBytes(page, paths);
    else await pickFiles(page, paths);
    const fit = await fitted(page, cells.models.length, cells.items.length);
    expect(fit.converged).toBe(true);

    const ds = await readInNode(files);
    const wide = path.join(root, 'reference.wide.csv');
    writeFileSync(wide, wideCsvLike(cells, ds));
    await freshPage(page);
    await pickFiles(page, [wide]);
    const ref = await fitted(page, cells.models.length, cells.items.length);
    expect(fit.settings.priorStrength).toBe(ref.settings.priorStrength);
    expect(Math.abs(fit.objective - ref.objective) / Math.abs(ref.objective)).toBeLessThan(1e-6);
  });
}
