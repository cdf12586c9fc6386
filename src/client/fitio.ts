/**
 * Reading a fit.json back and lining it up with the loaded data, so every view
 * is restored without refitting. Items and LLMs are matched by id.
 */
import { OPTION_LABELS, type Dataset } from '../core/data/types';
import type { FitJson } from '../core/fit/types';
import { MODEL_TYPES } from '../core/model/types';

export const FIT_SCHEMA = 'llm-nrm-fit/1';

/** A fit.json that cannot be used, with a message fit for the user. */
export class FitFileError extends Error {
  constructor(
    message: string,
    public readonly file: string,
  ) {
    super(message);
    this.name = 'FitFileError';
  }
}

/** True when `text` looks like a fit.json (cheap check before parsing). */
export function looksLikeFitJson(name: string, text: string): boolean {
  return /\.json$/i.test(name) && text.includes(FIT_SCHEMA);
}

/** Parses and checks the shape of a fit.json; throws FitFileError. */
export function parseFitJson(text: string, file: string): FitJson {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new FitFileError(`not valid JSON (${(e as Error).message})`, file);
  }
  const f = raw as Partial<FitJson> | null;
  if (!f || typeof f !== 'object' || f.schema !== FIT_SCHEMA)
    throw new FitFileError(`not a fit.json: "schema" must be "${FIT_SCHEMA}"`, file);
  if (!MODEL_TYPES.includes(f.model as never))
    throw new FitFileError(`unknown model "${String(f.model)}"`, file);
  if (!Array.isArray(f.llms) || !Array.isArray(f.items))
    throw new FitFileError('"llms" and "items" must be arrays', file);
  for (const l of f.llms)
    if (typeof l?.id !== 'string' || typeof l.theta !== 'number')
      throw new FitFileError('every LLM needs a string "id" and a numeric "theta"', file);
  for (const it of f.items)
    if (typeof it?.id !== 'string' || typeof it.b !== 'number')
      throw new FitFileError('every item needs a string "id" and a numeric "b"', file);
  return f as FitJson;
}

function listSome(ids: string[]): string {
  const shown = ids.slice(0, 3).map((s) => `"${s}"`);
  return ids.length > 3 ? `${shown.join(', ')} and ${ids.length - 3} more` : shown.join(', ');
}

function reorder<T extends { id: string }>(
  rows: T[],
  ids: string[],
  what: string,
  file: string,
): T[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const missing = ids.filter((id) => !byId.has(id));
  const known = new Set(ids);
  const extra = rows.filter((r) => !known.has(r.id)).map((r) => r.id);
  if (missing.length || extra.length) {
    const parts = [];
    if (missing.length)
      parts.push(`${missing.length} ${what} of the data are not in the fit (${listSome(missing)})`);
    if (extra.length)
      parts.push(`${extra.length} ${what} of the fit are not in the data (${listSome(extra)})`);
    throw new FitFileError(`the fit does not match the loaded data: ${parts.join('; ')}`, file);
  }
  return ids.map((id) => byId.get(id)!);
}

/**
 * The fit with its LLMs and items in the data set's order. Throws FitFileError
 * when ids, option counts or keys disagree.
 */
export function alignFit(fit: FitJson, ds: Dataset, file: string): FitJson {
  const llms = reorder(fit.llms, ds.llmIds, 'LLMs', file);
  const items = reorder(fit.items, ds.itemIds, 'items', file);
  items.forEach((it, i) => {
    if (it.nOptions !== ds.nOptions[i] || it.key !== OPTION_LABELS[ds.key[i]])
      throw new FitFileError(
        `item "${it.id}" has ${it.nOptions} options with key ${it.key} in the fit, but ` +
          `${ds.nOptions[i]} options with key ${OPTION_LABELS[ds.key[i]]} in the data`,
        file,
      );
  });
  return { ...fit, llms, items };
}
