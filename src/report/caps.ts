import type { Dataset } from '../core/data/types';

/**
 * How much of a long list the report shows: enough to read, bounded so that a
 * 189 × 31,554 report stays a file a browser opens. Every cut list says how
 * many rows it left out.
 */
export const CAPS = {
  /** Flagged items drawn with their curves, question and options. */
  flaggedDetailed: 40,
  /** Rows of the table of every other flagged item. */
  flaggedTable: 300,
  /** Load warnings listed. */
  warnings: 30,
  /** Files listed in the files table. */
  files: 60,
  /** Item- and LLM-fit outliers listed. */
  fitOutliers: 40,
  /** DIF rows listed. */
  dif: 40,
  /** LLMs in the ranking's forest plot and table. */
  llms: 400,
  /** LLMs per part of the forest plot: a part fits on a printed page. */
  forestRows: 45,
  /** Characters of a question or an option text. */
  text: 400,
} as const;

/** The smaller benchmark's default item budgets (the paper's 41-item test and 100). */
export const REPORT_BUDGETS: readonly number[] = [41, 100];

/** `s` cut to `max` characters, saying so. */
export function clipText(s: string, max: number = CAPS.text): string {
  return s.length <= max ? s : `${s.slice(0, max)}… (${s.length} characters)`;
}

/**
 * How the report names files: each path less the folder every file read
 * shares. The CLI reads paths (`public/demo/a.csv`, `/runs/out/org__m/x.jsonl`),
 * the app names (`a.csv`, `out/org__m/x.jsonl`); both become `a.csv` and
 * `org__m/x.jsonl`, so a harness root's many `samples_*.jsonl` keep their
 * model folder and the two reports agree.
 */
export function fileNamer(files: string[]): (file: string) => string {
  const dirs = files.map((f) => f.split(/[\\/]/).slice(0, -1));
  let n = dirs.length ? Math.min(...dirs.map((d) => d.length)) : 0;
  for (let q = 0; q < n; q++)
    if (dirs.some((d) => d[q] !== dirs[0][q])) {
      n = q;
      break;
    }
  return (file) => {
    const parts = file.split(/[\\/]/);
    const shared = n > 0 && dirs[0].slice(0, n).every((d, q) => parts[q] === d);
    return shared ? parts.slice(n).join('/') : parts[parts.length - 1] || file;
  };
}

/** `fileNamer` over every file the data set read or skipped. */
export function datasetFileNamer(ds: Dataset): (file: string) => string {
  return fileNamer([...ds.sources.map((s) => s.file), ...(ds.skipped ?? []).map((f) => f.file)]);
}
