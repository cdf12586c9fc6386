/**
 * Incremental JSON-lines reading with 1-based line numbers, progress and abort.
 * A line split over chunks waits in a `PendingText` (one pass, capped length).
 */
import type { ChunkParser, StreamOptions } from './csv.ts';
import { PendingText } from './pending.ts';
import { DataError } from './types.ts';

/** Feeds each non-blank line of a JSONL file, parsed, to `onRecord`. */
export class JsonlChunkReader implements ChunkParser {
  rows = 0;
  private readonly pending: PendingText;
  private line = 1;
  private bytes = 0;
  private started = false;

  constructor(
    private readonly file: string,
    private readonly onRecord: (value: unknown, line: number) => void,
    private readonly opts: StreamOptions = {},
  ) {
    this.pending = new PendingText(file, opts.maxRowChars);
  }

  push(chunk: string, bytes = chunk.length): void {
    this.opts.signal?.throwIfAborted();
    if (!this.started && chunk.length > 0) {
      this.started = true;
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
    }
    let start = 0;
    for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', start)) {
      const head = chunk.slice(start, nl);
      this.handle(this.pending.length > 0 ? this.pending.take() + head : head);
      start = nl + 1;
    }
    this.pending.add(chunk.slice(start), this.line);
    this.bytes += bytes;
    this.opts.onProgress?.(this.bytes, this.rows);
  }

  finish(): void {
    this.opts.signal?.throwIfAborted();
    if (this.pending.length > 0) this.handle(this.pending.take());
    if (this.rows === 0) throw new DataError('the file is empty', this.file);
  }

  private handle(raw: string): void {
    const line = this.line++;
    const s = raw.trim();
    if (s === '') return;
    let value: unknown;
    try {
      value = JSON.parse(s);
    } catch (e) {
      throw new DataError(
        `invalid JSON: ${(e as Error).message}`,
        this.file,
        line,
        undefined,
        'one JSON object per line',
      );
    }
    this.rows++;
    this.onRecord(value, line);
  }
}
