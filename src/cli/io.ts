import { open, readFile, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { estimateLoad } from '../core/data/estimate';
import type { Dataset } from '../core/data/types';
import { loadDatasetFromPaths } from '../node/files';
import { groupSkipped } from '../core/data/summary';
import type { SkippedFile, ValueKind } from '../core/data/types';
import type { FitJson } from '../core/fit/types';
import { UsageError } from './args';

/** Settings every command's loading shares, set from the global flags (`--strict`). */
export const loadSettings = { strict: false };

/**
 * Load data files (and an optional items file) the way the app does. A file
 * that cannot be used is skipped and listed with its reason, grouped by reason;
 * with `--strict` it is an error.
 */
export async function loadData(
  paths: string[],
  items?: string,
  valueKind?: ValueKind,
  sample?: number,
): Promise<Dataset> {
  if (paths.length === 0) throw new UsageError('No data files given.');
  const all = items ? [items, ...paths] : paths;
  if (sample === undefined) await refuseIfTooBig(paths);
  const ds = await loadDatasetFromPaths(all, {
    valueKind,
    sample: sample === undefined ? undefined : { fraction: sample, seed: 1 },
    strict: loadSettings.strict,
  });
  const skipped = new Set(ds.skipped?.map((s) => s.file));
  for (const w of ds.warnings) {
    if (w.code === 'keycheck') continue;
    if (skipped.has(w.file) && ds.skipped?.some((s) => s.reason === w.message)) continue;
    process.stderr.write(`warning: ${w.file}${w.line ? `:${w.line}` : ''}: ${w.message}\n`);
  }
  // The key checks against the producer's own score: notes, once per file, not warnings.
  for (const w of ds.warnings)
    if (w.code === 'keycheck') process.stderr.write(`keys: ${w.file}: ${w.message}\n`);
  process.stderr.write(skippedReport(ds.skipped ?? []));
  for (const s of ds.sources)
    if (s.valueKind)
      process.stderr.write(`${s.file}: values read as ${s.valueKind} (${s.valueKindReason})\n`);
  return ds;
}

/** Skipped files grouped by reason, for stderr ('' when none). */
export function skippedReport(skipped: SkippedFile[]): string {
  if (skipped.length === 0) return '';
  const groups = groupSkipped(skipped);
  const lines = [
    `skipped ${skipped.length} file${skipped.length > 1 ? 's' : ''} that could not be used ` +
      '(--strict makes this an error):',
  ];
  for (const g of groups) {
    lines.push(`  ${g.reason} (${g.files.length}):`);
    for (const f of g.files)
      lines.push(
        `    ${f.file}${f.line ? `:${f.line}` : ''}${f.reason !== g.reason ? `: ${f.reason}` : ''}`,
      );
  }
  return `${lines.join('\n')}\n`;
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

/**
 * Estimate each data file's memory from its head and size before reading it,
 * and refuse with a suggested --sample fraction rather than run out of memory.
 * The budget is half this machine's memory, or LLM_NRM_MEMORY_BUDGET bytes.
 */
async function refuseIfTooBig(paths: string[]): Promise<void> {
  const budget = Number(process.env.LLM_NRM_MEMORY_BUDGET) || os.totalmem() / 2;
  for (const p of paths) {
    const st = await stat(p).catch(() => null);
    if (!st?.isFile()) continue;
    const fh = await open(p, 'r');
    const buf = Buffer.alloc(Math.min(65536, st.size));
    await fh.read(buf, 0, buf.length, 0);
    await fh.close();
    let est;
    try {
      est = estimateLoad(
        { fileName: p, fileSize: st.size, head: buf.toString('utf8') },
        { memoryBudgetBytes: budget },
      );
    } catch {
      continue; // An unrecognisable head: the loader itself gives the precise error.
    }
    if (!est.fits)
      throw new UsageError(
        `${p}: ${est.suggestion}${est.sampleFraction ? ` Re-run with --sample ${est.sampleFraction.toPrecision(2)} to load that share of the items.` : ''}`,
      );
  }
}
