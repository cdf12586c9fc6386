/** The benchmark audit report of a fit of the loaded data set, built here (src/report) for "Download report". */
import type { Dataset } from '../core/data/types';
import type { FitJson } from '../core/fit/types';
import { buildReport } from '../report/build';
import type { ReportProgress } from '../report/types';
import { checkFitOf } from './psych';

/**
 * The report's HTML, exactly as `llm-nrm report` builds it from the same fit
 * and data (only `date` differs). Rejects with a DataMismatchError if `fit` is
 * not of `ds`.
 */
export function reportInWorker(
  fit: FitJson,
  ds: Dataset,
  date: string,
  onProgress: (p: ReportProgress) => void,
  signal?: AbortSignal,
): Promise<string> {
  checkFitOf(fit, ds);
  return buildReport({ ds, fit }, { date, onProgress, signal });
}
