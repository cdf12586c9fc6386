/**
 * The in-memory data set every part of the workbench reads: the parsers build it,
 * the fitting engines consume it, and it crosses the worker boundary as plain
 * typed arrays (transferable).
 *
 * Layout: cell (j, i) is LLM j on item i; its option k lives at
 * `obs[(j * I + i) * Kmax + k]`. Options k >= nOptions[i] are padding and hold 0.
 */
export interface Dataset {
  /** Number of LLMs (examinees). */
  J: number;
  /** Number of items. */
  I: number;
  /** Largest option count over items (2..10). */
  Kmax: number;
  llmIds: string[];
  itemIds: string[];
  /** Benchmark name per item ('' when unknown). */
  benchmarks: string[];
  /** Option count K_i per item, 2..10. */
  nOptions: Uint8Array;
  /** 0-based index of the keyed option per item. */
  key: Uint8Array;
  /** Renormalised observed probabilities, J x I x Kmax, 0 for padding and missing cells. */
  obs: Float32Array;
  /** 1 where cell (j, i) was observed, 0 where missing. J x I. */
  observed: Uint8Array;
  /**
   * Mass outside the item's options before renormalising, per cell (J x I):
   * 1 - sum of the raw probabilities. NaN where it cannot be known (unnormalised
   * weights) or the cell is missing.
   */
  leakage: Float32Array;
  /**
   * Subtask per item where a benchmark groups several (mmlu_anatomy in mmlu; ''
   * for items without one); absent when no item has a subtask.
   */
  subtasks?: string[];
  /** Optional item texts, index-aligned with itemIds (undefined when no items file had texts). */
  itemTexts?: (ItemText | null)[];
  /** How values were read, per source file, for the load report. */
  sources: SourceInfo[];
  /** Non-fatal findings: renormalisation beyond 1%, options with no mass, etc. */
  warnings: LoadWarning[];
  /** Files that gave nothing, each with why (absent in old sessions). */
  skipped?: SkippedFile[];
}

/** A file left out of the data set as a whole, and why. */
export interface SkippedFile {
  file: string;
  line?: number;
  /** Why, without the file name: files are grouped by this text. */
  reason: string;
}

/** How a reader's correctness (argmax = key) agreed with the producer's own per-record score. */
export interface ProducerCheck {
  producer: string;
  metric: string;
  agree: number;
  total: number;
  ties: number;
}

export interface ItemText {
  question: string;
  /** Option texts in label order A, B, ... ('' where missing). */
  options: string[];
}

/** What a value column was taken to hold. */
export type ValueKind = 'prob' | 'weight' | 'logprob';

export interface SourceInfo {
  file: string;
  format:
    | 'wide'
    | 'long'
    | 'harness'
    | 'items'
    | 'lighteval'
    | 'meta-evals'
    | 'inspect'
    | 'helm'
    | 'opencompass';
  valueKind?: ValueKind;
  /** Why valueKind was chosen ('column prefix p_', 'override', 'all values <= 0', ...). */
  valueKindReason?: string;
  rows: number;
  /** The key check against the producer's own score, where the file carries one. */
  producerCheck?: ProducerCheck;
}

export interface LoadWarning {
  file: string;
  line?: number;
  /**
   * 'keycheck': the keys' agreement with the producer's own score (a note, not a
   * caution): shown once, in the load summary's key-check list and the CLI's
   * "keys:" lines, never among the warnings.
   */
  code: 'renormalised' | 'zero-mass-option' | 'leakage' | 'ignored-column' | 'keycheck' | 'other';
  message: string;
  /** How many cells or rows this warning stands for (warnings are aggregated). */
  count?: number;
}

/** A precise, user-facing input error. Thrown by every parser on bad input. */
export class DataError extends Error {
  constructor(
    message: string,
    public readonly file: string,
    public readonly line?: number,
    public readonly column?: string | number,
    public readonly expected?: string,
  ) {
    super(formatDataError(message, file, line, column, expected));
    this.name = 'DataError';
    this.reason = formatDataError(message, '', undefined, column, expected).replace(/^: /, '');
  }
  /** The message without the file and line ('column x: what (expected y)'). */
  readonly reason: string;
}

function formatDataError(
  message: string,
  file: string,
  line?: number,
  column?: string | number,
  expected?: string,
): string {
  const where = [
    file,
    line !== undefined ? `line ${line}` : '',
    column !== undefined ? `column ${clip(String(column), 60)}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return `${where}: ${clip(message, 400)}${expected ? ` (expected ${expected})` : ''}`;
}

/** `s` cut to `max` characters, saying how long it was. */
function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max)}… (${s.length} characters)`;
}

const ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * A value from a file as shown in messages: in single quotes, control characters
 * escaped (so a newline in an id stays on one line), and cut after `max` characters.
 */
export function quoted(s: string, max = 60): string {
  // eslint-disable-next-line no-control-regex
  const safe = clip(s, max).replace(/[\u0000-\u001f\u007f]/g, (c) => {
    return ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return `'${safe}'`;
}

/** Option labels in order; index k is label OPTION_LABELS[k]. */
export const OPTION_LABELS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'] as const;
export const MAX_OPTIONS = 10;
