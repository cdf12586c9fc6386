import { readFile, writeFile } from 'node:fs/promises';
import type { Dataset } from '../core/data/types';
import { loadDatasetFromPaths } from '../core/data/node';
import type { ValueKind } from '../core/data/types';
import type { FitJson } from '../core/fit/types';
import { UsageError } from './args';

/** Load data files (and an optional items file) the way the app does. */
export async function loadData(
  paths: string[],
  items?: string,
  valueKind?: ValueKind,
): Promise<Dataset> {
  if (paths.length === 0) throw new UsageError('No data files given.');
  const all = items ? [items, ...paths] : paths;
  const ds = await loadDatasetFromPaths(all, { valueKind });
  for (const w of ds.warnings)
    process.stderr.write(`warning: ${w.file}${w.line ? `:${w.line}` : ''}: ${w.message}\n`);
  for (const s of ds.sources)
    if (s.valueKind)
      process.stderr.write(`${s.file}: values read as ${s.valueKind} (${s.valueKindReason})\n`);
  return ds;
}

export async function readFit(path: string): Promise<FitJson> {
  const text = await readFile(path, 'utf8');
  let json: FitJson;
  try {
    json = JSON.parse(text) as FitJson;
  } catch (e) {
    throw new UsageError(`${path}: not valid JSON (${(e as Error).message}).`);
  }
  if (json.schema !== 'llm-nrm-fit/1')
    throw new UsageError(`${path}: not an llm-nrm fit.json (schema "${json.schema}").`);
  return json;
}

export async function writeOut(path: string | undefined, text: string): Promise<void> {
  if (!path || path === '-') process.stdout.write(text);
  else await writeFile(path, text);
}
