/**
 * What a saved session holds, and the checks a record read back must pass.
 * Anything IndexedDB hands back is treated as untrusted: an older schema, a
 * half-written record or another build's layout is dropped, never shown.
 */
import type { Dataset } from '../../core/data/types';
import type { FitJson } from '../../core/fit/types';
import type { FitCheckpointRecord } from '../../boundary/checkpoint';
import type { FitEntry, LoadedData } from '../state';

import { RECORD_VERSION } from '../../worker/idb';

export { RECORD_VERSION };

/** The loaded data set (typed arrays stored as they are), its summary and file names. */
export interface SavedData extends LoadedData {
  version: number;
  savedAt: number;
}

/** One completed (or imported) fit. */
export interface SavedFit {
  version: number;
  savedAt: number;
  label: string;
  origin: FitEntry['origin'];
  fit: FitJson;
}

/** The latest checkpoint of a fit that has not finished. */
export interface SavedCheckpoint extends FitCheckpointRecord {
  version: number;
  savedAt: number;
}

/** A session read back: the data, its fits (with their store keys) and any checkpoint. */
export interface Session {
  data: SavedData;
  fits: { key: IDBValidKey; saved: SavedFit }[];
  checkpoint: SavedCheckpoint | null;
  /** When anything in it was last written (ms since the epoch). */
  savedAt: number;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;
const strings = (v: unknown, n: number) =>
  Array.isArray(v) && v.length === n && v.every((s) => typeof s === 'string');

function isDataset(v: unknown): v is Dataset {
  if (!isObj(v) || !isCount(v.J) || !isCount(v.I) || !isCount(v.Kmax)) return false;
  const { J, I, Kmax } = v;
  const typed = (a: unknown, T: { new (n: number): ArrayBufferView }, n: number) =>
    a instanceof T && (a as unknown as ArrayLike<number>).length === n;
  return (
    strings(v.llmIds, J) &&
    strings(v.itemIds, I) &&
    strings(v.benchmarks, I) &&
    typed(v.nOptions, Uint8Array, I) &&
    typed(v.key, Uint8Array, I) &&
    typed(v.obs, Float32Array, J * I * Kmax) &&
    typed(v.observed, Uint8Array, J * I) &&
    typed(v.leakage, Float32Array, J * I) &&
    Array.isArray(v.sources) &&
    Array.isArray(v.warnings) &&
    (v.itemTexts === undefined || (Array.isArray(v.itemTexts) && v.itemTexts.length === I))
  );
}

/** The saved data, or null if the record is missing, stale or malformed. */
export function checkData(v: unknown): SavedData | null {
  if (!isObj(v) || v.version !== RECORD_VERSION || !Number.isFinite(v.savedAt)) return null;
  if (!isDataset(v.dataset) || !isObj(v.summary) || !Array.isArray(v.files)) return null;
  return v as unknown as SavedData;
}

/** The saved fit if it is a fit of `ds` (same shape), else null. */
export function checkFit(v: unknown, ds: Dataset): SavedFit | null {
  if (!isObj(v) || v.version !== RECORD_VERSION || typeof v.label !== 'string') return null;
  if (v.origin !== 'fit' && v.origin !== 'import') return null;
  const f = v.fit;
  if (!isObj(f) || f.schema !== 'llm-nrm-fit/1') return null;
  if (!Array.isArray(f.llms) || f.llms.length !== ds.J) return null;
  if (!Array.isArray(f.items) || f.items.length !== ds.I) return null;
  return v as unknown as SavedFit;
}

/** The saved checkpoint, or null. */
export function checkCheckpoint(v: unknown): SavedCheckpoint | null {
  if (!isObj(v) || v.version !== RECORD_VERSION || !Number.isFinite(v.savedAt)) return null;
  if (!(v.x instanceof Float64Array) || !isCount(v.step) || !isObj(v.settings)) return null;
  if (typeof v.objective !== 'number') return null;
  return v as unknown as SavedCheckpoint;
}

/** Puts checked records together; null when there is no usable data (nothing to restore). */
export function toSession(
  data: unknown,
  fits: { key: IDBValidKey; value: unknown }[],
  checkpoint: unknown,
): Session | null {
  const d = checkData(data);
  if (!d) return null;
  const kept: Session['fits'] = [];
  for (const { key, value } of fits) {
    const saved = checkFit(value, d.dataset);
    if (saved) kept.push({ key, saved });
  }
  const cp = checkCheckpoint(checkpoint);
  const savedAt = Math.max(d.savedAt, cp?.savedAt ?? 0, ...kept.map((f) => f.saved.savedAt));
  return { data: d, fits: kept, checkpoint: cp, savedAt };
}
