/**
 * What a saved session holds, and the checks a record read back must pass.
 * Both sides of the worker boundary write these records (the worker the data
 * it loaded and the fits and checkpoints it made, the page the rest: writes.ts);
 * the page reads them back. Anything IndexedDB hands back is treated as
 * untrusted: an older schema, a half-written record or another build's layout
 * is dropped, never shown.
 */
import type { DatasetSummary } from '../../core/data/summary';
import type { Dataset } from '../../core/data/types';
import type { FitJson } from '../../core/fit/types';
import type { FitCheckpointRecord } from '../checkpoint';

/** Bumped when a record's layout changes; older records are then ignored. */
export const RECORD_VERSION = 1;

/** When and in which layout a record was written. */
export interface Stamp {
  version: number;
  savedAt: number;
}

/** The loaded data set (typed arrays stored as they are), its summary and file names. */
export interface DataRecord {
  dataset: Dataset;
  summary: DatasetSummary;
  files: string[];
  seconds: number;
  /** The worker saved this data set to the session store itself. */
  storedInWorker?: boolean;
}

/** One completed (or imported) fit. */
export interface FitRecord {
  label: string;
  origin: 'fit' | 'import';
  fit: FitJson;
}

export type SavedData = DataRecord & Stamp;
export type SavedFit = FitRecord & Stamp;
/** The latest checkpoint of a fit that has not finished. */
export type SavedCheckpoint = FitCheckpointRecord & Stamp;

/** `rec` stamped with this build's record version and `now`. */
export function stamp<T extends object>(rec: T, now = Date.now()): T & Stamp {
  return { ...rec, version: RECORD_VERSION, savedAt: now };
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
const isCount = (v: unknown): v is number => Number.isInteger(v) && Number(v) >= 0;
const strings = (v: unknown, n: number) =>
  Array.isArray(v) && v.length === n && v.every((s) => typeof s === 'string');
const typed = (a: unknown, T: new (n: number) => ArrayLike<number>, n: number) =>
  a instanceof T && a.length === n;
const isStamped = (v: unknown): v is Record<string, unknown> & Stamp =>
  isObj(v) && v.version === RECORD_VERSION && Number.isFinite(v.savedAt);

function isDataset(v: unknown): v is Dataset {
  if (!isObj(v) || !isCount(v.J) || !isCount(v.I) || !isCount(v.Kmax)) return false;
  const { J, I, Kmax } = v;
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

function isSavedData(v: unknown): v is SavedData {
  return (
    isStamped(v) &&
    isDataset(v.dataset) &&
    isObj(v.summary) &&
    Array.isArray(v.files) &&
    typeof v.seconds === 'number'
  );
}

/** A fit of `ds`'s shape: the fit.json schema, one row per LLM and per item. */
function isSavedFit(v: unknown, ds: Dataset): v is SavedFit {
  if (!isStamped(v) || typeof v.label !== 'string') return false;
  if (v.origin !== 'fit' && v.origin !== 'import') return false;
  const f = v.fit;
  return (
    isObj(f) &&
    f.schema === 'llm-nrm-fit/1' &&
    Array.isArray(f.llms) &&
    f.llms.length === ds.J &&
    Array.isArray(f.items) &&
    f.items.length === ds.I
  );
}

function isSavedCheckpoint(v: unknown): v is SavedCheckpoint {
  if (!isStamped(v) || !(v.x instanceof Float64Array)) return false;
  // A 'start' record has no iterate yet; any other holds one.
  const phaseOk =
    v.phase === 'start' || ((v.phase === undefined || v.phase === 'fit') && v.x.length > 0);
  return (
    phaseOk &&
    (v.replaces === undefined || typeof v.replaces === 'string') &&
    isCount(v.step) &&
    isObj(v.settings) &&
    typeof v.objective === 'number'
  );
}

/** The saved data, or null if the record is missing, stale or malformed. */
export function checkData(v: unknown): SavedData | null {
  return isSavedData(v) ? v : null;
}

/** The saved fit if it is a fit of `ds` (same shape), else null. */
export function checkFit(v: unknown, ds: Dataset): SavedFit | null {
  return isSavedFit(v, ds) ? v : null;
}

/** The saved checkpoint, or null. */
export function checkCheckpoint(v: unknown): SavedCheckpoint | null {
  return isSavedCheckpoint(v) ? v : null;
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
