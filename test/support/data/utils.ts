/** Helpers shared by the data tests (src/core/data; not used by the app). */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { loadDataset, type LoadOptions } from '../../../src/core/data/load.ts';
import { DataError, type Dataset } from '../../../src/core/data/types.ts';

/** The repository root (three levels above test/support/data). */
export const repoRoot = path.resolve(fileURLToPath(new URL('../../../', import.meta.url)));
/** The real NAEP data the app embeds as its demo (public/demo/README.md). */
export const demoDir = path.resolve(repoRoot, 'public/demo');
/** The data tests' fixtures (src/core/data/fixtures). */
export const fixturesDir = path.resolve(repoRoot, 'src/core/data/fixtures');

/** Loads in-memory files given as `{ name: text }`. */
export function loadTexts(files: Record<string, string>, opts: LoadOptions = {}): Promise<Dataset> {
  return loadDataset(
    Object.entries(files).map(([name, text]) => ({ name, text })),
    opts,
  );
}

/** Asserts that `p` rejects with a DataError at the given place. */
export async function expectDataError(
  p: Promise<unknown>,
  want: { file?: string; line?: number; column?: string; message: RegExp },
): Promise<DataError> {
  let caught: unknown;
  try {
    await p;
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(DataError);
  const e = caught as DataError;
  expect(e.message).toMatch(want.message);
  if ('line' in want) expect(e.line).toBe(want.line);
  if ('column' in want) expect(e.column).toBe(want.column);
  if (want.file) expect(e.file).toBe(want.file);
  if (want.line !== undefined) expect(e.message).toContain(`line ${want.line}`);
  return e;
}

/** Value of option k of cell (model, item) by ids. */
export function cell(ds: Dataset, model: string, item: string): number[] {
  const j = ds.llmIds.indexOf(model);
  const i = ds.itemIds.indexOf(item);
  if (j < 0 || i < 0) throw new Error(`no cell ${model} / ${item}`);
  const off = (j * ds.I + i) * ds.Kmax;
  return Array.from(ds.obs.subarray(off, off + ds.nOptions[i]));
}
