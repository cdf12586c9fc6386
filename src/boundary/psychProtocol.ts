/**
 * What the worker sends back for the Psychometrics tab (worker/psych.ts), and
 * the one error the page answers by handing the worker its data set.
 */
import type { ClassicalItemRow } from '../core/psych/classical';
import type { MhRow } from '../core/psych/dif';
import type { ItemFitRow, PersonFitRow } from '../core/psych/itemfit';
import type { ReliabilityRow } from '../core/psych/reliability';

/**
 * The DDplot rows (core/psych/classical's DdRow) as columns: tens of thousands
 * of row objects took ~80 ms of the page's thread to receive, typed arrays are
 * transferred. Row r is item `item[r]` (an index into the data set's items),
 * score group `group[r]`, option `option[r]` (0 = A).
 */
export interface DdColumns {
  item: Int32Array;
  group: Int32Array;
  option: Int32Array;
  isKey: Uint8Array;
  share: Float64Array;
  n: Float64Array;
}

/** Item and LLM fit, reliability and the classical item analysis of one fit. */
export interface PsychTables {
  modelFit: { kind: 'option' | 'binary'; items: ItemFitRow[]; llms: PersonFitRow[] };
  reliability: ReliabilityRow[];
  classical: { items: ClassicalItemRow[]; dd: DdColumns; groups: number };
}

/** Which data set a call is about: its items and LLMs, in order. */
export interface DataKey {
  itemIds: string[];
  llmIds: string[];
}

/** Mantel–Haenszel DIF of every item for LLMs split into `group` (names: reference first). */
export interface DifRequest {
  data: DataKey;
  group: string[];
  names: string[];
}

export type DifReply = MhRow[];

/** The name of the error a worker call rejects with when it holds a different data set. */
export const DATA_MISMATCH = 'DataMismatchError';

/** The worker holds other data than the call is about (the page may hand it its own). */
export function dataMismatch(message: string): Error {
  const e = new Error(message);
  e.name = DATA_MISMATCH;
  return e;
}

export const isDataMismatch = (e: unknown): boolean =>
  e instanceof Error && e.name === DATA_MISMATCH;
