/**
 * Reading the Python literals that lighteval 0.7 writes into its string
 * Parquet columns (`"[(-0.0009, True), (-7.2, False)]"`, `"['A', 'B']"`):
 * lists, tuples, strings with escapes, numbers, True/False/None, and dicts.
 */

/** Parses one Python literal; throws Error with the offset on anything else. */
export function parsePyLiteral(text: string): unknown {
  let at = 0;
  const ws = () => {
    for (let c = text.charCodeAt(at); c === 32 || (c >= 9 && c <= 13); c = text.charCodeAt(++at));
  };
  const fail = (what: string): never => {
    throw new Error(`${what} at character ${at + 1}`);
  };
  const value = (): unknown => {
    ws();
    const c = text[at];
    if (c === '[' || c === '(') return seq(c === '[' ? ']' : ')');
    if (c === '{') return dict();
    if (c === "'" || c === '"') return str(c);
    const word = /^(True|False|None|nan|inf|-inf|[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?)/.exec(
      text.slice(at, at + 64),
    );
    if (!word) return fail('unexpected text');
    at += word[0].length;
    const w = word[0];
    if (w === 'True' || w === 'False') return w === 'True';
    if (w === 'None' || w === 'nan') return w === 'None' ? null : NaN;
    return w === 'inf' ? Infinity : w === '-inf' ? -Infinity : Number(w);
  };
  const seq = (close: string): unknown[] => {
    at++;
    const out: unknown[] = [];
    for (;;) {
      ws();
      if (text[at] === close) return (at++, out);
      out.push(value());
      ws();
      if (text[at] === ',') at++;
      else if (text[at] !== close) fail(`expected ',' or '${close}'`);
    }
  };
  const dict = (): Record<string, unknown> => {
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
  };
  const ESC: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"' };
  const str = (q: string): string => {
    at++;
    let out = '';
    while (at < text.length && text[at] !== q) {
      // Plain runs are copied whole; only escapes go character by character.
      let end = at;
      while (end < text.length && text[end] !== q && text[end] !== '\\') end++;
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
  };
  const v = value();
  ws();
  if (at < text.length) fail('extra text');
  return v;
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
