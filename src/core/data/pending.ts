/**
 * The unfinished tail of a streamed text file, kept as a list of pieces so a
 * long row costs one pass however many chunks it spans (rescanning or
 * re-concatenating the tail on every chunk would be quadratic), and capped so a
 * quote left open or a file without line breaks fails with a DataError instead
 * of exhausting memory or the engine's string length limit.
 */
import { DataError } from './types.ts';

const [QUOTE, COMMA, NEWLINE, RETURN] = [34, 44, 10, 13];

/** Longest row (or JSON line) a reader accepts, in characters. */
export const MAX_ROW_CHARS = 256 * 1024 * 1024;

/**
 * Finds row ends (newlines outside quoted fields) chunk by chunk, carrying the
 * quote state across chunks. Like Papa, a quote opens a quoted field only at the
 * start of a field, and `""` inside one is an escaped quote.
 */
export class RowEndScanner {
  private inQuotes = false;
  /** Inside quotes, a '"' ended the last chunk: closing, or the first of `""`? */
  private pendingQuote = false;
  private prev = NEWLINE;

  /** Index of the last row-ending '\n' in `chunk`, or -1. */
  scan(chunk: string): number {
    if (chunk.length === 0) return -1;
    let pos = 0;
    let cut = -1;
    if (this.pendingQuote) {
      this.pendingQuote = false;
      if (chunk.charCodeAt(0) === QUOTE) pos = 1;
      else this.inQuotes = false;
    }
    for (;;) {
      if (this.inQuotes) {
        const close = chunk.indexOf('"', pos);
        if (close < 0) break;
        if (close + 1 === chunk.length) {
          this.pendingQuote = true;
          break;
        }
        if (chunk.charCodeAt(close + 1) === QUOTE) pos = close + 2;
        else {
          this.inQuotes = false;
          pos = close + 1;
        }
      } else {
        const open = chunk.indexOf('"', pos);
        const nl = chunk.lastIndexOf('\n', (open < 0 ? chunk.length : open) - 1);
        if (nl >= pos) cut = nl;
        if (open < 0) break;
        const before = open === 0 ? this.prev : chunk.charCodeAt(open - 1);
        this.inQuotes = before === COMMA || before === NEWLINE || before === RETURN;
        pos = open + 1;
      }
    }
    this.prev = chunk.charCodeAt(chunk.length - 1);
    return cut;
  }
}

/** Pieces of text not yet parsed, with a size cap. */
export class PendingText {
  private pieces: string[] = [];
  private size = 0;

  constructor(
    private readonly file: string,
    private readonly max = MAX_ROW_CHARS,
  ) {}

  get length(): number {
    return this.size;
  }

  /** Appends text; throws a DataError naming `line` when the tail grows past the cap. */
  add(text: string, line: number): void {
    if (text.length === 0) return;
    this.pieces.push(text);
    this.size += text.length;
    if (this.size <= this.max) return;
    const crOnly =
      this.pieces.some((p) => p.includes('\r')) && !this.pieces.some((p) => p.includes('\n'));
    throw new DataError(
      crOnly
        ? `no line break in the first ${this.max} characters, only carriage returns (classic Mac line ends)`
        : `a row longer than ${this.max} characters starts here: is a quoted field left open?`,
      this.file,
      line,
      undefined,
      crOnly ? 'LF or CRLF line ends' : 'rows of reasonable length',
    );
  }

  /** All pending text, which is then cleared. */
  take(): string {
    const s = this.pieces.length === 1 ? this.pieces[0] : this.pieces.join('');
    this.pieces = [];
    this.size = 0;
    return s;
  }
}
