/**
 * Incremental CSV reading: string chunks go in, rows with their 1-based file line
 * numbers come out. Chunks are cut at the last newline outside quotes, and each
 * complete piece goes through `Papa.parse` in step mode, so the text is never held
 * twice and quoted fields may span chunks and lines. The unfinished tail waits in
 * a `PendingText`; each chunk is scanned once (see `pending.ts`).
 */
import Papa from 'papaparse';
import { PendingText, RowEndScanner } from './pending.ts';
import { DataError, quoted, type LoadWarning } from './types.ts';

/** Progress and cancellation, shared by every incremental parser. */
export interface StreamOptions {
  /** Called after each chunk with bytes consumed so far and data rows read. */
  onProgress?: (bytes: number, rows: number) => void;
  /** Aborting makes the next `push` or `finish` throw the signal's reason. */
  signal?: AbortSignal;
  /** Longest row accepted, in characters (default `MAX_ROW_CHARS`, 256 Mi). */
  maxRowChars?: number;
}

/** The incremental interface every format parser exposes. */
export interface ChunkParser {
  /** Feeds the next piece of text; `bytes` is its size for progress (default: its length). */
  push(chunk: string, bytes?: number): void;
  /** Ends the input, runs whole-file checks and hands the result to the builder. */
  finish(): void;
  /** Data rows read so far. */
  readonly rows: number;
}

/**
 * The parser a reader becomes once `done` runs after its own `finish()`: the format's
 * whole-file checks and its hand-over to the builder, given the rows read.
 */
export function finishingWith(reader: ChunkParser, done: (rows: number) => void): ChunkParser {
  return {
    push: (chunk, bytes) => reader.push(chunk, bytes),
    finish() {
      reader.finish();
      done(reader.rows);
    },
    get rows() {
      return reader.rows;
    },
  };
}

/** A CSV parser: `onHeader` and `onRow` read the file, then `done` as in `finishingWith`. */
export function csvParser(
  file: string,
  onHeader: (h: CsvHeader) => void,
  onRow: RowFn,
  opts: StreamOptions,
  done: (rows: number) => void,
): ChunkParser {
  return finishingWith(new CsvChunkReader(file, onHeader, onRow, opts), done);
}

/** A parsed header: column name to index, plus the raw line for delimiter hints. */
export interface CsvHeader {
  names: string[];
  index: Map<string, number>;
  raw: string;
}

type RowFn = (fields: string[], line: number) => void;

/** Feeds rows of one CSV file to a callback, tracking line numbers and progress. */
export class CsvChunkReader implements ChunkParser {
  rows = 0;
  private readonly pending: PendingText;
  private readonly scanner = new RowEndScanner();
  private line = 1;
  private bytes = 0;
  private started = false;
  private newline: '\n' | '\r\n' | '\r' | undefined;
  private header: CsvHeader | null = null;

  constructor(
    private readonly file: string,
    private readonly onHeader: (h: CsvHeader) => void,
    private readonly onRow: RowFn,
    private readonly opts: StreamOptions = {},
  ) {
    this.pending = new PendingText(file, opts.maxRowChars);
  }

  push(chunk: string, bytes = chunk.length): void {
    this.opts.signal?.throwIfAborted();
    if (!this.started) {
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
      if (chunk.length > 0) this.started = true;
    }
    const cut = this.scanner.scan(chunk);
    if (cut < 0) this.pending.add(chunk, this.line);
    else {
      const head = chunk.slice(0, cut + 1);
      this.parsePiece(this.pending.length > 0 ? this.pending.take() + head : head);
      this.pending.add(chunk.slice(cut + 1), this.line);
    }
    this.bytes += bytes;
    this.opts.onProgress?.(this.bytes, this.rows);
  }

  finish(): void {
    this.opts.signal?.throwIfAborted();
    if (this.pending.length > 0) this.parsePiece(this.pending.take());
    if (!this.header) throw new DataError('the file is empty', this.file);
    if (this.rows === 0)
      throw new DataError('the file has a header but no data rows', this.file, 2);
  }

  private parsePiece(piece: string): void {
    if (!this.newline) {
      const nl = piece.indexOf('\n');
      // LF even in CRLF files, so a file with mixed line ends (rows appended by
      // another tool) still splits into rows; the CR left on a row's last field
      // is removed in `row`. A CRLF inside a quoted field stays as written.
      if (nl >= 0) this.newline = '\n';
      else if (piece.includes('\r')) this.newline = '\r';
    }
    // Classic Mac files (CR only) arrive whole, at finish(); count their lines by CR.
    const eol = this.newline === '\r' ? '\r' : '\n';
    let prev = 0;
    let line = this.line;
    Papa.parse<string[]>(piece, {
      delimiter: ',',
      newline: this.newline,
      step: (res) => {
        const rowLine = line;
        const end = res.meta.cursor;
        for (let p = piece.indexOf(eol, prev); p >= 0 && p < end; p = piece.indexOf(eol, p + 1))
          line++;
        prev = end;
        const fields = res.data;
        if (res.errors.length > 0)
          throw new DataError(`malformed CSV: ${res.errors[0].message}`, this.file, rowLine);
        if (fields.length === 1 && fields[0].trim() === '') return;
        this.row(fields, rowLine);
      },
    });
    for (let p = piece.indexOf(eol, prev); p >= 0; p = piece.indexOf(eol, p + 1)) line++;
    this.line = line;
  }

  private row(fields: string[], line: number): void {
    const last = fields.length - 1;
    if (fields[last].endsWith('\r')) fields[last] = fields[last].slice(0, -1);
    if (!this.header) {
      const names = fields.map((f) => f.trim());
      const index = new Map<string, number>();
      names.forEach((n, i) => {
        if (n === '') return;
        if (index.has(n))
          throw new DataError(`duplicate column ${quoted(n)} in the header`, this.file, line, n);
        index.set(n, i);
      });
      this.header = { names, index, raw: fields.join(',') };
      this.onHeader(this.header);
      return;
    }
    if (fields.length !== this.header.names.length)
      throw new DataError(
        `row has ${fields.length} fields but the header has ${this.header.names.length}`,
        this.file,
        line,
        undefined,
        `${this.header.names.length} comma-separated fields`,
      );
    this.rows++;
    this.onRow(fields, line);
  }
}

/**
 * Index of a required column; throws a DataError naming it. When the header looks
 * semicolon- or tab-delimited, says so instead.
 */
export function requireColumn(file: string, h: CsvHeader, name: string, expected: string): number {
  const i = h.index.get(name);
  if (i !== undefined) return i;
  checkDelimiter(file, h.raw);
  throw new DataError(`missing required column '${name}'`, file, 1, name, expected);
}

/**
 * A header's column indices by role: each of `need` names a column that must be there
 * (else requireColumn's error), each of `may` one that may be absent (-1).
 */
export function columnsOf<N extends string, M extends string>(
  file: string,
  h: CsvHeader,
  expected: string,
  need: Record<N, string>,
  may: Record<M, string>,
): Record<N | M, number> {
  const out = {} as Record<N | M, number>;
  for (const [role, name] of Object.entries(need) as [N, string][])
    out[role] = requireColumn(file, h, name, expected);
  for (const [role, name] of Object.entries(may) as [M, string][])
    out[role] = h.index.get(name) ?? -1;
  return out;
}

/** Warns (on line 1) of header columns the format does not read, when there are any. */
export function warnIgnoredColumns(
  sink: { warn(w: LoadWarning): void },
  file: string,
  names: readonly string[],
): void {
  if (names.length > 0)
    sink.warn({
      file,
      line: 1,
      code: 'ignored-column',
      message: `ignored columns: ${names.join(', ')}`,
    });
}

/** Throws when a header line is separated by ';' or tabs rather than commas. */
export function checkDelimiter(file: string, raw: string): void {
  const delim = raw.includes('\t') ? 'tab' : raw.includes(';') ? 'semicolon' : null;
  if (delim)
    throw new DataError(
      `the header looks ${delim}-delimited; save the file as comma-separated CSV`,
      file,
      1,
      undefined,
      'comma-separated columns',
    );
}
