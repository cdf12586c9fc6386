/** Random damage to valid input files, for the mutation property tests (not used by the app). */
import fc from 'fast-check';

/** One change to a file's bytes or lines. */
export type Mutation =
  | { op: 'truncate'; at: number }
  | { op: 'swapColumns'; a: number; b: number; headerOnly: boolean }
  | { op: 'inject'; row: number; col: number; value: string }
  | { op: 'injectValue'; row: number; fromEnd: number; value: string }
  | { op: 'injectJson'; row: number; key: number; value: unknown }
  | { op: 'duplicateRow'; row: number }
  | { op: 'deleteRow'; row: number }
  | { op: 'bom' }
  | { op: 'crlf' }
  | { op: 'crOnly' }
  | { op: 'invalidUtf8'; at: number; bytes: number[] }
  | { op: 'flipByte'; at: number; value: number };

const CELLS = [
  'NaN',
  'nan',
  'Inf',
  '-inf',
  'Infinity',
  '1e999',
  '-1e999',
  '0x10',
  '0b1',
  'abc',
  '',
  ' ',
  '-0',
  '1,5',
  '"',
  '"a,b"',
  '"x\ny"',
  'say ""hi""',
  '1e-400',
  'A',
  'Z',
  'j',
  '11',
  '1',
  '0',
  '-5',
  '0.5',
  'null',
  '\u0000',
  '\uFEFF',
  'é',
  'a,"b"\nc',
  'x'.repeat(5000),
  '1e300',
  '-1e300',
  '1e-300',
  '4e38',
  '"a, ""b""\nc"',
  '"x,\r\ny"',
];
const JSON_VALUES: unknown[] = [
  'NaN',
  null,
  'Infinity',
  {},
  [],
  1e308,
  -1e308,
  'abc',
  true,
  -1,
  1.5,
  [[['x']]],
  '',
  'A',
  99,
  0,
  '0',
  [1, 2],
  { gen_args_0: 1 },
  '-0.5',
  'x'.repeat(5000),
];
/** Invalid UTF-8: stray continuation, lone lead bytes, overlong, surrogate, > U+10FFFF. */
const BAD_BYTES = [
  [0x80],
  [0xff],
  [0xc3],
  [0xe2, 0x82],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf5, 0x80, 0x80, 0x80],
  [0xfe, 0xfe],
];

/** A position in [0, 1) of a file, uniform (fast-check would favour 0 and small values). */
const frac = fc.noBias(fc.integer({ min: 0, max: 0x7fffffff })).map((n) => n / 0x80000000);
const anyRow = fc.noBias(fc.nat());

/** Any one mutation. */
export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('truncate' as const), at: frac }),
  fc.record({
    op: fc.constant('swapColumns' as const),
    a: fc.nat(12),
    b: fc.nat(12),
    headerOnly: fc.boolean(),
  }),
  fc.record({
    op: fc.constant('inject' as const),
    row: anyRow,
    col: fc.nat(14),
    value: fc.constantFrom(...CELLS),
  }),
  fc.record({
    op: fc.constant('injectValue' as const),
    row: anyRow,
    fromEnd: fc.nat(3),
    value: fc.oneof(fc.double().map(String), fc.integer().map(String), fc.constantFrom(...CELLS)),
  }),
  fc.record({
    op: fc.constant('injectJson' as const),
    row: anyRow,
    key: fc.nat(10),
    value: fc.constantFrom(...JSON_VALUES),
  }),
  fc.record({ op: fc.constant('duplicateRow' as const), row: anyRow }),
  fc.record({ op: fc.constant('deleteRow' as const), row: anyRow }),
  fc.constant({ op: 'bom' as const }),
  fc.constant({ op: 'crlf' as const }),
  fc.constant({ op: 'crOnly' as const }),
  fc.record({
    op: fc.constant('invalidUtf8' as const),
    at: frac,
    bytes: fc.constantFrom(...BAD_BYTES),
  }),
  fc.record({
    op: fc.constant('flipByte' as const),
    at: frac,
    value: fc.integer({ min: 0, max: 255 }),
  }),
);

/** Bytes of a file. */
export type Bytes = Uint8Array<ArrayBuffer>;

const enc = new TextEncoder();
const dec = new TextDecoder();

function splice(b: Bytes, at: number, del: number, ins: ArrayLike<number>): Bytes {
  const out = new Uint8Array(b.length - del + ins.length);
  out.set(b.subarray(0, at));
  out.set(ins, at);
  out.set(b.subarray(at + del), at + ins.length);
  return out;
}

/** Line-level edits work on the text split at '\n' (quoted newlines are not special). */
function editLines(b: Bytes, fn: (lines: string[]) => void): Bytes {
  const lines = dec.decode(b).split('\n');
  fn(lines);
  return enc.encode(lines.join('\n'));
}

/** A data line index (not the header, not the empty tail) or -1. */
const dataRow = (lines: string[], n: number) =>
  lines.length > 2 ? 1 + (n % (lines.length - 2)) : -1;

function injectJson(line: string, key: number, value: unknown): string {
  let rec: unknown;
  try {
    rec = JSON.parse(line);
  } catch {
    return line;
  }
  if (typeof rec !== 'object' || rec === null || Array.isArray(rec)) return line;
  const r = rec as Record<string, unknown>;
  const keys = Object.keys(r);
  const resps = r.filtered_resps;
  if (key >= keys.length && Array.isArray(resps) && resps.length > 0)
    resps[key % resps.length] = value;
  else r[keys[key % keys.length]] = value;
  return JSON.stringify(r);
}

/** Applies one mutation to a file's bytes. */
export function mutate(b: Bytes, m: Mutation): Bytes {
  switch (m.op) {
    case 'truncate':
      return b.subarray(0, Math.floor(m.at * b.length));
    case 'bom':
      return splice(b, 0, 0, [0xef, 0xbb, 0xbf]);
    case 'crlf':
      return enc.encode(dec.decode(b).replace(/\r?\n/g, '\r\n'));
    case 'crOnly':
      return enc.encode(dec.decode(b).replace(/\r?\n/g, '\r'));
    case 'invalidUtf8':
      return splice(b, Math.floor(m.at * b.length), 0, m.bytes);
    case 'flipByte':
      return b.length === 0 ? b : splice(b, Math.floor(m.at * b.length), 1, [m.value]);
    case 'swapColumns':
      return editLines(b, (lines) =>
        lines.forEach((l, n) => {
          if (m.headerOnly && n > 0) return;
          const f = l.split(',');
          if (m.a >= f.length || m.b >= f.length) return;
          [f[m.a], f[m.b]] = [f[m.b], f[m.a]];
          lines[n] = f.join(',');
        }),
      );
    case 'inject':
      return editLines(b, (lines) => {
        const n = m.row % lines.length;
        const f = lines[n].split(',');
        f[m.col % f.length] = m.value;
        lines[n] = f.join(',');
      });
    case 'injectValue':
      return editLines(b, (lines) => {
        const n = dataRow(lines, m.row);
        if (n < 0) return;
        const f = lines[n].split(',');
        f[Math.max(0, f.length - 1 - m.fromEnd)] = m.value;
        lines[n] = f.join(',');
      });
    case 'injectJson':
      return editLines(b, (lines) => {
        const n = m.row % lines.length;
        lines[n] = injectJson(lines[n], m.key, m.value);
      });
    case 'duplicateRow':
      return editLines(b, (lines) => {
        const n = dataRow(lines, m.row);
        if (n >= 0) lines.splice(n, 0, lines[n]);
      });
    case 'deleteRow':
      return editLines(b, (lines) => {
        const n = dataRow(lines, m.row);
        if (n >= 0) lines.splice(n, 1);
      });
  }
}
