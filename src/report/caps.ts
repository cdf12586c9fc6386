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
  /** Characters of a question or an option text. */
  text: 400,
} as const;

/** The smaller benchmark's default item budgets (the paper's 41-item test and 100). */
export const REPORT_BUDGETS: readonly number[] = [41, 100];

/** `s` cut to `max` characters, saying so. */
export function clipText(s: string, max: number = CAPS.text): string {
  return s.length <= max ? s : `${s.slice(0, max)}… (${s.length} characters)`;
}

/** The last part of a path: the CLI reads paths, the app file names; the report shows names. */
export function baseName(p: string): string {
  const parts = p.split(/[\\/]/);
  return parts[parts.length - 1] || p;
}
