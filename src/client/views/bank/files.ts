/**
 * Bank files in and out, and the small parsing the Bank & CAT tab needs. Pure
 * (no DOM, no React): tested in Node.
 */
import { toCsv } from '../../../boundary/csv';
import { bankFromFit, type ItemBank } from '../../../core/bank/bank';
import { bankToParameterTable } from '../../../core/bank/table';
import { validateBank } from '../../../core/bank/validate';
import type { Dataset, ItemText } from '../../../core/data/types';
import type { FitJson } from '../../../core/fit/types';
import { FIT_SCHEMA, parseFitJson } from '../../fitio';

/** Question and option texts of a data set, by item id. */
export function datasetTexts(ds: Dataset): Map<string, ItemText | null> {
  return new Map(ds.itemIds.map((id, i) => [id, ds.itemTexts?.[i] ?? null]));
}

/** The files a data set was read from, each once. */
export function dataFiles(ds: Dataset): string[] {
  return [...new Set(ds.sources.map((s) => s.file))];
}

/** A bank of the shown fit, with its data files, settings and item texts as provenance. */
export function bankOfFit(fit: FitJson, ds: Dataset, date?: string): ItemBank {
  return bankFromFit(
    fit,
    { dataFiles: dataFiles(ds), settings: fit.settings, date },
    datasetTexts(ds),
  );
}

/**
 * Reads a bank file. A fit.json is accepted too (its bank is made on the
 * spot). Throws with a message that names the file and every problem.
 */
export function readBankText(text: string, name: string): ItemBank {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(
      `${name}: not valid JSON (${(e as Error).message}). A bank file is the bank.json that "Save bank" writes.`,
      { cause: e },
    );
  }
  if ((json as { schema?: unknown } | null)?.schema === FIT_SCHEMA)
    return bankFromFit(parseFitJson(text, name), { dataFiles: [] });
  return validateBank(json, name);
}

/** The bank as the bank.json "Save bank" writes. */
export function bankJson(bank: ItemBank): string {
  return JSON.stringify(bank, null, 1) + '\n';
}

/** mirt-style parameter table (one row per item, parameter and option). */
export function parameterTableCsv(bank: ItemBank): string {
  return toCsv(bankToParameterTable(bank), [
    'item',
    'benchmark',
    'class',
    'key',
    'parameter',
    'option',
    'value',
    'se',
  ]);
}

/** One line about a bank: items, benchmarks, model, calibration LLMs. */
export function bankSummary(bank: ItemBank): string {
  const benches = new Set(bank.items.map((it) => it.benchmark)).size;
  return (
    `${bank.items.length} items (${benches} benchmark${benches === 1 ? '' : 's'}), ` +
    `model ${bank.model}, calibrated on ${bank.calibration.llms.length} LLMs`
  );
}

/**
 * An LLM's option probabilities typed or pasted by the user: K numbers
 * separated by commas, semicolons, tabs or spaces. Weights are fine (they are
 * renormalised); negatives, non-numbers, a wrong count or all zeros are not.
 */
export function parseProbs(text: string, K: number): number[] {
  const parts = text
    .trim()
    .split(/[\s,;]+/)
    .filter((p) => p !== '');
  if (parts.length !== K)
    throw new Error(`Give ${K} numbers, one per option (got ${parts.length}).`);
  const v = parts.map(Number);
  const bad = parts.findIndex((p, k) => !Number.isFinite(v[k]) || v[k] < 0 || p === '');
  if (bad >= 0) throw new Error(`"${parts[bad]}" is not a probability (a number ≥ 0).`);
  if (!(v.reduce((a, b) => a + b, 0) > 0)) throw new Error('The numbers must not all be 0.');
  return v;
}
