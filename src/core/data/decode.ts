/**
 * Streaming UTF-8 decoding of byte chunks (Blobs in the browser, files on disk).
 *
 * Policy for bytes that are not valid UTF-8: they never stop a load and never
 * throw. Each maximal invalid sequence becomes U+FFFD (the WHATWG decoder's
 * replacement character), and the file gets one 'other' warning with the number
 * of replacements and the line of the first (see `loadSources`). This keeps files
 * exported in a legacy code page (e.g. Windows-1252 from Excel) loadable; only
 * texts and ids with non-ASCII characters are affected, and the warning says to
 * save the file as UTF-8. A U+FFFD that is genuinely in the file (bytes EF BF BD)
 * is not counted. Text handed over as a string is not checked: it is decoded.
 */

/** Invalid UTF-8 found in one file. */
export interface InvalidUtf8 {
  /** Replacement characters inserted for invalid byte sequences. */
  count: number;
  /** 1-based line of the first (approximate if the file also holds a real U+FFFD). */
  line: number;
}

/** A piece of decoded text and the bytes it came from. */
export interface SourceChunk {
  text: string;
  /** Bytes consumed, for progress. */
  bytes: number;
  /** Set on the last chunk of a file that held invalid UTF-8. */
  invalid?: InvalidUtf8;
}

const REPLACEMENT = 0xfffd;

function countChar(text: string, ch: string, from = 0): number {
  let n = 0;
  for (let p = text.indexOf(ch, from); p >= 0; p = text.indexOf(ch, p + 1)) n++;
  return n;
}

/** Decodes a byte stream chunk by chunk and counts invalid sequences. */
export class Utf8ChunkDecoder {
  /** Replacements for invalid bytes so far. */
  invalid = 0;
  /** Line of the first replacement, 0 while there is none. */
  firstLine = 0;
  private readonly dec = new TextDecoder('utf-8');
  /** Last two bytes seen, for EF BF BD split across chunks (-1: none). */
  private b1 = -1;
  private b2 = -1;
  /** Newlines decoded before the current chunk (counted until the first invalid byte). */
  private newlines = 0;

  /** Decodes the next chunk; an incomplete sequence at its end waits for the next. */
  decode(buf: Uint8Array): string {
    const text = this.dec.decode(buf, { stream: true });
    this.check(text, buf);
    return text;
  }

  /** Flushes the decoder: bytes left incomplete at the end become U+FFFD. */
  end(): string {
    const text = this.dec.decode();
    this.check(text, new Uint8Array(0));
    return text;
  }

  private check(text: string, buf: Uint8Array): void {
    const first = text.indexOf(String.fromCharCode(REPLACEMENT));
    if (first >= 0) {
      const bad = countChar(text, '\uFFFD', first) - this.realReplacements(buf);
      if (bad > 0 && this.invalid === 0)
        this.firstLine = this.newlines + 1 + countChar(text.slice(0, first), '\n');
      if (bad > 0) this.invalid += bad;
    }
    if (this.invalid === 0) this.newlines += countChar(text, '\n');
    for (let k = Math.max(0, buf.length - 2); k < buf.length; k++) {
      this.b2 = this.b1;
      this.b1 = buf[k];
    }
  }

  /** EF BF BD sequences (a real U+FFFD) ending in `buf`. */
  private realReplacements(buf: Uint8Array): number {
    let n = 0;
    const at = (k: number) => (k >= 0 ? buf[k] : k === -1 ? this.b1 : this.b2);
    for (let k = 0; k < buf.length; k++)
      if (buf[k] === 0xbd && at(k - 1) === 0xbf && at(k - 2) === 0xef) n++;
    return n;
  }
}

/** Decodes byte buffers to text chunks; the last chunk reports invalid UTF-8, if any. */
export async function* decodeChunks(
  buffers: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
): AsyncGenerator<SourceChunk> {
  const dec = new Utf8ChunkDecoder();
  for await (const buf of buffers) yield { text: dec.decode(buf), bytes: buf.byteLength };
  const text = dec.end();
  if (text || dec.invalid)
    yield {
      text,
      bytes: 0,
      ...(dec.invalid ? { invalid: { count: dec.invalid, line: dec.firstLine } } : {}),
    };
}
