/**
 * Parquet strings without a `TextDecoder` call per value (issue 26's browser
 * speed): hyparquet decodes every string value with a call of its own (about
 * 0.15 µs each in Chromium, and a harness file is millions of short strings).
 * `pageText` decodes the page's buffer once, a character per byte, and takes a
 * value's slice of that when it is all ASCII; `utf8Text` makes short ASCII
 * values with `String.fromCharCode`; anything else still goes through
 * `TextDecoder`, so the text is the same either way. `PARQUET_PARSERS` hands
 * them to hyparquet; nested columns are read by `parquetColumns.ts`.
 */
import type { ParquetParsers } from 'hyparquet';

const decoder = new TextDecoder();

/** UTF-8 text of `bytes`, as `TextDecoder.decode` gives it. */
export function utf8Text(bytes: Uint8Array): string {
  const n = bytes.length;
  if (n <= 32) {
    let any = 0;
    for (let i = 0; i < n; i++) any |= bytes[i];
    if (any < 0x80) return Reflect.apply(String.fromCharCode, null, bytes) as string;
  }
  return decoder.decode(bytes);
}

/**
 * The buffer the last value sat in (up to PAGE_TEXT_MAX bytes), and its bytes
 * as characters one to one (windows-1252 decodes every byte to one character,
 * ASCII bytes to themselves).
 */
let pageBuffer: ArrayBufferLike | null = null;
let pageChars: string | null = null;
const singleByte = new TextDecoder('windows-1252');
/** Buffers up to this size are decoded whole (a page, a dictionary); larger ones value by value. */
const PAGE_TEXT_MAX = 4 << 20;
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * UTF-8 text of a value that is a view into a page's buffer, as `TextDecoder`
 * gives it: the page's buffer is decoded once a byte a character, and a value
 * whose characters there are all ASCII is that slice (ASCII is the same in
 * UTF-8); any other value is decoded on its own. A page of thousands of values
 * costs one decode and a slice each, not one decoder call each.
 */
export function pageText(bytes: Uint8Array): string {
  const buf = bytes.buffer;
  // A larger buffer (a whole uncompressed file) is neither decoded nor kept here.
  if (buf.byteLength > PAGE_TEXT_MAX) return utf8Text(bytes);
  if (buf !== pageBuffer) {
    pageBuffer = buf;
    pageChars = singleByte.decode(new Uint8Array(buf));
  }
  const s = pageChars!.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
  return NON_ASCII.test(s) ? utf8Text(bytes) : s;
}

/** hyparquet's string and JSON parsers through `pageText` (other parsers: its defaults). */
export const PARQUET_PARSERS: Partial<ParquetParsers> = {
  stringFromBytes: (bytes: Uint8Array) => bytes && pageText(bytes),
  jsonFromBytes: (bytes: Uint8Array) => bytes && JSON.parse(pageText(bytes)),
};
