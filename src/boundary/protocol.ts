/**
 * What crosses the worker boundary, read by both sides. Types only: the client
 * imports nothing from the worker at run time except the error transfer handler.
 */
import type { ItemFlag } from '../core/bank/flags';
import type { LoadOptions as CoreLoadOptions } from '../core/data/load';
import type { DatasetSummary } from '../core/data/summary';
import type { Dataset } from '../core/data/types';
import type { EngineName } from '../core/engines/types';
import type { Derived } from '../core/fit/derive';

/** One input file, in whichever form the caller has it. */
export type LoadSource =
  | { name: string; text: string; model?: string }
  | { name: string; blob: Blob; model?: string }
  /** Fetched by the worker (same origin only): the embedded demo. */
  | { name: string; url: string };

/** Parser options that can cross the boundary (the worker adds signal and progress). */
export type LoadOptions = Omit<CoreLoadOptions, 'signal' | 'onProgress'>;

/** Progress of a load, throttled to about 10 per second. */
export interface LoadProgress {
  /** Bytes read so far over all files. */
  bytes: number;
  /** Bytes in all files (0 while not yet known). */
  totalBytes: number;
  /** Data rows read so far. */
  rows: number;
  elapsedMs: number;
}

export interface LoadResult {
  dataset: Dataset;
  summary: DatasetSummary;
  /** Seconds the worker spent reading and parsing. */
  seconds: number;
  /** The worker saved the data set to the session store (asked for, and it worked). */
  storedInWorker?: boolean;
}

/** Which engine a choice resolves to on this machine, and why. */
export interface EngineResolution {
  name: EngineName;
  reason: string;
}

/** What the views need of a fit besides the fit itself, computed in the worker. */
export interface DerivedReply {
  derived: Derived;
  flags: ItemFlag[];
}
