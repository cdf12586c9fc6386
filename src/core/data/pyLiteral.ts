/**
 * Reading the Python literals that lighteval 0.7 writes into its string
 * Parquet columns (`"[(-0.0009, True), (-7.2, False)]"`, `"['A', 'B']"`):
 * lists, tuples, strings with escapes, numbers, True/False/None, and dicts.
 */

/**
 * The parser's state: one literal is parsed at a time (no parse calls another),
 * so the text and position live here rather than in closures made per call
 * (a lighteval file is hundreds of thousands of small literals).
 */
let text = '';
let at = 0;

const ESC: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"' };

const fail = (what: string): never => {
  throw new Error(`${what} at character ${at + 1}`);
};

const ws = () => {
  for (let c = text.charCodeAt(at); c === 32 || (c >= 9 && c <= 13); c = text.charCodeAt(++at));
};

const isDigit = (c: number) => c >= 48 && c <= 57;

/** End of the digits from `p` (not past `end`). */
function digits(p: number, end: number): number {
  while (p < end && isDigit(text.charCodeAt(p))) p++;
  return p;
}

/**
 * End of the number at `at` (`[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?` within the
 * next 64 characters), or `at` when there is none.
 */
function numberEnd(): number {
  const end = Math.min(text.length, at + 64);
  let p = at;
  let c = text.charCodeAt(p);
  if (c === 43 || c === 45) c = text.charCodeAt(++p);
  if (isDigit(c)) {
    p = digits(p, end);
    if (p < end && text.charCodeAt(p) === 46) p = digits(p + 1, end);
  } else if (c === 46 && p + 1 < end && isDigit(text.charCodeAt(p + 1))) p = digits(p + 1, end);
  else return at;
  c = text.charCodeAt(p);
  if (p < end && (c === 101 || c === 69)) {
    let q = p + 1;
    const s = text.charCodeAt(q);
    if (q < end && (s === 43 || s === 45)) q++;
    if (q < end && isDigit(text.charCodeAt(q))) p = digits(q, end);
  }
  return p;
}

/** The constant or number at `at` (True, False, None, nan, inf, -inf, or a number). */
function word(): unknown {
  // A number starts with a sign, a digit or '.', a constant with a letter (or '-inf'):
  // the number is tried first when it can be one, as no text is both.
  const c = text.charCodeAt(at);
  if (c === 43 || c === 45 || c === 46 || isDigit(c)) {
    const end = numberEnd();
    if (end > at) {
      const w = text.slice(at, end);
      at = end;
      return Number(w);
    }
  }
  for (const [w, v] of WORDS)
    if (text.startsWith(w, at)) {
      at += w.length;
      return v;
    }
  return fail('unexpected text');
}
const WORDS: [string, unknown][] = [
  ['True', true],
  ['False', false],
  ['None', null],
  ['nan', NaN],
  ['inf', Infinity],
  ['-inf', -Infinity],
];

function value(): unknown {
  ws();
  const c = text.charCodeAt(at);
  if (c === 91 || c === 40) return seq(c === 91 ? ']' : ')');
  if (c === 123) return dict();
  if (c === 39 || c === 34) return str(c === 39 ? "'" : '"');
  return word();
}

function seq(close: string): unknown[] {
  at++;
  const end = close.charCodeAt(0);
  const out: unknown[] = [];
  for (;;) {
    ws();
    if (text.charCodeAt(at) === end) return (at++, out);
    out.push(value());
    ws();
    const c = text.charCodeAt(at);
    if (c === 44) at++;
    else if (c !== end) fail(`expected ',' or '${close}'`);
  }
}

function dict(): Record<string, unknown> {
  at++;
  const out: Record<string, unknown> = {};
  for (;;) {
    ws();
    if (text[at] === '}') return (at++, out);
    const k = value();
    ws();
    if (text[at++] !== ':') fail("expected ':'");
    out[String(k)] = value();
    ws();
    if (text[at] === ',') at++;
  }
}

function str(q: string): string {
  at++;
  const quote = q.charCodeAt(0);
  let out = '';
  while (at < text.length && text[at] !== q) {
    // Plain runs are copied whole; only escapes go character by character.
    let end = at;
    for (let c = text.charCodeAt(end); end < text.length && c !== quote && c !== 92;)
      c = text.charCodeAt(++end);
    if (end > at) {
      out += text.slice(at, end);
      at = end;
      continue;
    }
    if (text[at] === '\\') {
      const e = text[at + 1];
      if (e === 'x' || e === 'u') {
        const len = e === 'x' ? 2 : 4;
        out += String.fromCharCode(parseInt(text.slice(at + 2, at + 2 + len), 16));
        at += 2 + len;
      } else {
        out += ESC[e] ?? `\\${e}`;
        at += 2;
      }
    } else out += text[at++];
  }
  if (at >= text.length) fail('unterminated string');
  at++;
  return out;
}

/** Parses one Python literal; throws Error with the offset on anything else. */
export function parsePyLiteral(literal: string): unknown {
  text = literal;
  at = 0;
  try {
    const v = value();
    ws();
    if (at < text.length) fail('extra text');
    return v;
  } finally {
    text = '';
  }
}

/**
 * The numbers of a list of `(number, True|False)` tuples written exactly as
 * Python prints one (`[(-0.0009, True), (-7.2e-05, False)]`, lighteval's
 * `predictions`), read without building the tuples; null for any other text
 * (other spacing, nan or inf, anything else), which `pyValue` then reads. On
 * the texts it reads, the numbers are those of `pyValue`'s tuples.
 */
export function pyScorePairs(literal: string): number[] | null {
  text = literal;
  at = 0;
  try {
    const out: number[] = [];
    if (text.charCodeAt(0) !== 91) return null;
    at = 1;
    if (text.charCodeAt(at) === 93) return at + 1 === text.length ? out : null;
    for (;;) {
      if (text.charCodeAt(at) !== 40) return null;
      at++;
      const end = numberEnd();
      if (end === at || text.charCodeAt(end) !== 44 || text.charCodeAt(end + 1) !== 32) return null;
      out.push(Number(text.slice(at, end)));
      at = end + 2;
      if (text.startsWith('True)', at)) at += 5;
      else if (text.startsWith('False)', at)) at += 6;
      else return null;
      const c = text.charCodeAt(at);
      if (c === 93) return at + 1 === text.length ? out : null;
      if (c !== 44 || text.charCodeAt(at + 1) !== 32) return null;
      at += 2;
    }
  } finally {
    text = '';
  }
}

/**
 * The strings of a list written exactly as Python prints a list of strings
 * with no quote or backslash in them (`[' A', 'B c']`, lighteval's `choices`);
 * null for any other text, which `pyValue` then reads. On the texts it reads,
 * the strings are those of `pyValue`'s list.
 */
export function pyStringList(literal: string): string[] | null {
  const out: string[] = [];
  const n = literal.length;
  if (literal.charCodeAt(0) !== 91) return null;
  let at = 1;
  if (literal.charCodeAt(at) === 93) return at + 1 === n ? out : null;
  for (;;) {
    if (literal.charCodeAt(at) !== 39) return null;
    let end = at + 1;
    for (let c = literal.charCodeAt(end); end < n && c !== 39; c = literal.charCodeAt(++end))
      if (c === 92 || c === 34) return null;
    if (end >= n) return null;
    out.push(literal.slice(at + 1, end));
    at = end + 1;
    const c = literal.charCodeAt(at);
    if (c === 93) return at + 1 === n ? out : null;
    if (c !== 44 || literal.charCodeAt(at + 1) !== 32) return null;
    at += 2;
  }
}

/** A column value as a JS value: Python literal text is parsed, JSON text too, others kept. */
export function pyValue(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const t = v.trim();
  if (!/^[[({]/.test(t)) return v;
  // lighteval's tuples and True/False/None are never JSON: parse them as Python
  // first rather than after a failed JSON.parse (a thrown error per cell is slow).
  const python = t[0] === '(' || /'|\(|True|False|None/.test(t);
  const [first, second] = python ? [parsePyLiteral, JSON.parse] : [JSON.parse, parsePyLiteral];
  try {
    return first(t);
  } catch {
    return second(t);
  }
}
