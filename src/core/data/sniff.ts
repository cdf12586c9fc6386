/**
 * Telling what a file holds from its first bytes, before any text parsing:
 * compressed (gzip), a container (ZIP: Inspect `.eval`; Parquet) or text. Any
 * other binary content is refused with "this is not a text file" rather than
 * being read as a CSV with a strange header.
 */
import { DataError } from './types.ts';

/** What the first bytes say. */
export type ByteKind = 'gzip' | 'zip' | 'parquet' | 'text';

const starts = (b: Uint8Array, magic: number[]) => magic.every((m, k) => b[k] === m);

/** Known binary formats, for a precise message. */
const KNOWN: [number[], string][] = [
  [[0x89, 0x50, 0x4e, 0x47], 'a PNG image'],
  [[0xff, 0xd8, 0xff], 'a JPEG image'],
  [[0x25, 0x50, 0x44, 0x46], 'a PDF document'],
  [[0x47, 0x49, 0x46, 0x38], 'a GIF image'],
  [[0x28, 0xb5, 0x2f, 0xfd], 'Zstandard-compressed data (decompress it first)'],
  [[0x42, 0x5a, 0x68], 'bzip2-compressed data (decompress it first)'],
  [[0xfd, 0x37, 0x7a, 0x58, 0x5a], 'xz-compressed data (decompress it first)'],
];

/** The first line of a Git LFS pointer file (https://git-lfs.com/spec/v1). */
const LFS_POINTER = [...new TextEncoder().encode('version https://git-lfs.github.com/spec/v1')];

/** ' to a file of N bytes' from a pointer's `size` line, or ''. */
function lfsSize(head: Uint8Array): string {
  const size = /^size (\d+)$/m.exec(new TextDecoder().decode(head.subarray(0, 512)))?.[1];
  return size ? ` to a file of ${Number(size).toLocaleString('en-US')} bytes` : '';
}

/**
 * Classifies a file by its head bytes. A Git LFS pointer (a clone without
 * `git lfs pull`) is refused as one, whatever its name. Text is UTF-8 (or UTF-16 with a BOM,
 * which is refused with advice) without NUL bytes, and with few control
 * characters other than tab, CR and LF.
 */
export function sniffBytes(file: string, head: Uint8Array): ByteKind {
  if (starts(head, [0x1f, 0x8b])) return 'gzip';
  if (starts(head, [0x50, 0x4b, 0x03, 0x04])) return 'zip';
  if (starts(head, [0x50, 0x41, 0x52, 0x31])) return 'parquet';
  const notText = (what: string) =>
    new DataError(
      `this is not a text file: it looks like ${what}`,
      file,
      undefined,
      undefined,
      'a UTF-8 text file (CSV, JSON or JSONL), a .gz of one, Parquet or an Inspect .eval log',
    );
  for (const [magic, what] of KNOWN) if (starts(head, magic)) throw notText(what);
  if (starts(head, LFS_POINTER))
    throw new DataError(
      `this is a Git LFS pointer${lfsSize(head)}, not the file's content; fetch the file (git lfs pull)`,
      file,
      1,
      undefined,
      'the file itself, not its pointer',
    );
  if (starts(head, [0xff, 0xfe]) || starts(head, [0xfe, 0xff]))
    throw notText('UTF-16 text (save it as UTF-8)');
  let control = 0;
  const n = Math.min(head.length, 8192);
  for (let k = 0; k < n; k++) {
    const c = head[k];
    if (c === 0) throw notText('binary data (it has NUL bytes)');
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c) control++;
  }
  if (n > 0 && control / n > 0.05) throw notText('binary data (many control bytes)');
  return 'text';
}
