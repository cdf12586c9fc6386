/**
 * What the item-bank calls of the worker (bank.ts) take and return. Plain
 * data only: banks, scores and CAT results are structured-cloned.
 */
import type { ItemBank } from '../core/bank/bank';
import type { CatResult } from '../core/bank/cat';
import type { DatasetSummary } from '../core/data/summary';
import type { ScoreResult } from '../core/fit/score';

export type { CatResult, ItemBank, ScoreResult };

/** The data in the worker's new-LLM slot (kept apart from the calibration data). */
export interface NewDataInfo {
  /** File names it was read from. */
  files: string[];
  llmIds: string[];
  summary: DatasetSummary;
  /** Seconds spent reading and parsing. */
  seconds: number;
}

/** A bank calibrated on some LLMs of a data set and the rest scored against it. */
export interface HoldOutResult {
  bank: ItemBank;
  /** The held-out LLMs, now in the new-LLM slot. */
  newData: NewDataInfo;
  score: ScoreResult;
}

/** Which data the LLM of an adaptive test comes from. */
export type CatSource = 'new' | 'calibration';

/** Stopping rules of a simulated adaptive test. */
export interface CatSettings {
  /** Stop after this many items (default CAT_DEFAULTS.maxItems, 41). */
  maxItems: number;
  /** Stop once SE(θ) falls below this (none when undefined). */
  se?: number;
}
