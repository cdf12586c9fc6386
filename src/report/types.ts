/** What the report is built from, and how it reports progress. Plain data: crosses the worker boundary. */
import type { Dataset } from '../core/data/types';
import type { CrossValidateResult } from '../core/eval/cv';
import type { FitJson } from '../core/fit/types';

export interface ReportInput {
  ds: Dataset;
  /** A fit of `ds` (same items and LLMs, in order). */
  fit: FitJson;
  /** The held-out model comparison (section 8), when asked for. */
  cv?: CrossValidateResult;
  /** LLM groups for DIF (section 6): each LLM's group ('' = none) and the group names, reference first. */
  groups?: { group: string[]; names: string[] };
}

export interface ReportOptions {
  /** The one line that may differ between two builds of the same inputs (e.g. an ISO date). */
  date: string;
  /** Item budgets of the smaller benchmark (section 7); default REPORT_BUDGETS. */
  budgets?: readonly number[];
  onProgress?: (p: ReportProgress) => void;
  signal?: AbortSignal;
}

export interface ReportProgress {
  /** Sections built so far, of `total`. */
  done: number;
  total: number;
  /** The section being built now. */
  stage: string;
}
