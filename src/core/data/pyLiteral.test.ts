import { describe, expect, it } from 'vitest';
import { parsePyLiteral, pyScorePairs, pyStringList, pyValue } from './pyLiteral.ts';

describe('Python literals of lighteval 0.7 string columns', () => {
  it('reads tuples, lists, dicts, strings with escapes, numbers and constants', () => {
    expect(pyValue('[(-0.0009, True), (-7.25e-1, False)]')).toEqual([
      [-0.0009, true],
      [-0.725, false],
    ]);
    expect(pyValue("[' A', 'it\\'s', \"say \\\"hi\\\"\", 'tab\\there', '\\x41\\u00e9']")).toEqual([
      ' A',
      "it's",
      'say "hi"',
      'tab\there',
      'Aé',
    ]);
    expect(pyValue("{'acc': 1.0, 'x': None, 'y': [nan, inf, -inf]}")).toEqual({
      acc: 1,
      x: null,
      y: [NaN, Infinity, -Infinity],
    });
    expect(pyValue('  [ 1 ,\n 2 ]  ')).toEqual([1, 2]);
    expect(pyValue('[]')).toEqual([]);
  });

  it('reads JSON text as JSON, also when it holds quotes or parentheses', () => {
    expect(pyValue('[1, 2.5, "a"]')).toEqual([1, 2.5, 'a']);
    expect(pyValue('{"a": true, "b": null, "c": "x (y) it\'s"}')).toEqual({
      a: true,
      b: null,
      c: "x (y) it's",
    });
    expect(pyValue('["\\u00e9\\/"]')).toEqual(['é/']);
  });

  it('keeps other values and plain text as they are', () => {
    expect(pyValue(3)).toBe(3);
    expect(pyValue('plain text')).toBe('plain text');
    expect(pyValue(null)).toBe(null);
  });

  it('says where a literal is wrong', () => {
    expect(() => parsePyLiteral('[1, 2')).toThrow(/expected ',' or '\]' at character 6/);
    expect(() => parsePyLiteral("['open")).toThrow(/unterminated string/);
    expect(() => parsePyLiteral('[1] x')).toThrow(/extra text at character 5/);
    expect(() => pyValue('[(1, Flase)]')).toThrow();
  });

  it('gives what the first (closure, regex) parser gave, value or error, on random text', () => {
    let seed = 2026;
    const r = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const tokens = [
      '[',
      ']',
      '(',
      ')',
      '{',
      '}',
      ',',
      ':',
      ' ',
      "'",
      '"',
      '\\',
      'x',
      'u',
      '41',
      'True',
      'False',
      'None',
      'nan',
      'inf',
      '-inf',
      '-',
      '+',
      '.',
      'e',
      'E',
      '0',
      '7',
      '12',
      'a',
      '\n',
      'é',
      '1.5e-3',
      '-0.25',
      '.5',
      '5.',
    ];
    const literal = (d: number): string => {
      const k = Math.floor(r() * 6);
      if (d === 0 || k < 2)
        return ['True', 'None', '-inf', '3.25e2', '-7', "'a\\'b'", '"q"', '.5', 'nan'][
          Math.floor(r() * 9)
        ];
      const parts = Array.from({ length: Math.floor(r() * 4) }, () => literal(d - 1));
      if (k === 2) return `[${parts.join(', ')}]`;
      if (k === 3) return `(${parts.join(',')})`;
      return `{${parts.map((p, i) => `'k${i}': ${p}`).join(', ')}}`;
    };
    const outcome = (f: (t: string) => unknown, t: string) => {
      try {
        return { value: f(t) };
      } catch (e) {
        return { error: (e as Error).message };
      }
    };
    for (let n = 0; n < 20000; n++) {
      const t =
        n % 2 === 0
          ? Array.from(
              { length: Math.floor(r() * 12) },
              () => tokens[Math.floor(r() * tokens.length)],
            ).join('')
          : literal(4);
      expect(outcome(parsePyLiteral, t)).toEqual(outcome(reference, t));
    }
    const long = `[${'1'.repeat(70)}]`;
    expect(outcome(parsePyLiteral, long)).toEqual(outcome(reference, long));
  });
});

describe('pyScorePairs', () => {
  it('gives the first numbers of the tuples pyValue reads, or null for other texts', () => {
    let seed = 7;
    const r = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const nums = [
      '-0.0009',
      '-7.2e-05',
      '-0.0',
      '0',
      '-12.5',
      '3',
      '-1.5E+2',
      '-.5',
      '+2.',
      'nan',
      '-inf',
    ];
    const firsts = (t: string) => (pyValue(t) as unknown[][]).map((p) => p[0]);
    for (let n = 0; n < 3000; n++) {
      const k = Math.floor(r() * 6);
      let t = `[${Array.from({ length: k }, () => `(${nums[Math.floor(r() * nums.length)]}, ${r() < 0.5 ? 'True' : 'False'})`).join(', ')}]`;
      // Variants the fast path leaves to pyValue.
      if (r() < 0.2) t = t.replace(', ', ',');
      if (r() < 0.1) t = ` ${t}`;
      if (r() < 0.1) t = t.replace(')', ', 1)');
      const got = pyScorePairs(t);
      if (got !== null) expect(got).toEqual(firsts(t));
      if (!/nan|inf|,\S|^ |, 1\)/.test(t)) expect(got).not.toBeNull();
    }
    expect(pyScorePairs('[]')).toEqual([]);
    expect(pyScorePairs('[(1, True)] x')).toBeNull();
    expect(pyScorePairs('[(1, Tru)]')).toBeNull();
  });
});

describe('pyStringList', () => {
  it('gives the strings of the list pyValue reads, or null for other texts', () => {
    let seed = 11;
    const r = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const words = [
      ' A',
      'B c',
      '',
      ' red 0',
      'é ✓',
      '(x)',
      'a, b',
      "it's",
      'say "hi"',
      'back\\slash',
      ']',
    ];
    for (let n = 0; n < 3000; n++) {
      const k = Math.floor(r() * 5);
      let t = `[${Array.from({ length: k }, () => `'${words[Math.floor(r() * words.length)]}'`).join(', ')}]`;
      if (r() < 0.1) t = t.replace("', '", "','");
      if (r() < 0.05) t = `${t} `;
      let want: unknown;
      try {
        want = pyValue(t);
      } catch {
        want = 'error';
      }
      const got = pyStringList(t);
      if (got !== null) expect(got).toEqual(want);
      if (!/["\\]|',|\] $|'it's'/.test(t) && want !== 'error') expect(got).not.toBeNull();
    }
    expect(pyStringList('[]')).toEqual([]);
    expect(pyStringList("['a'")).toBeNull();
    expect(pyStringList("['a'] ")).toBeNull();
  });
});

/**
 * The parser as first written (closures per call, a regex for words and numbers,
 * strings a character at a time): the reference.
 */
function reference(text: string): unknown {
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
    const out: Record<string, unknown> = {};
    for (at++, ws(); text[at] !== '}'; ws()) {
      const key = String(value());
      ws();
      if (text[at++] !== ':') fail("expected ':'");
      out[key] = value();
      ws();
      if (text[at] === ',') at++;
    }
    at++;
    return out;
  };
  const ESC: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"' };
  // One character or one escape a step (the parser copies plain runs whole).
  const str = (q: string): string => {
    const parts: string[] = [];
    for (at++; at < text.length && text[at] !== q;) {
      if (text[at] !== '\\') {
        parts.push(text[at++]);
        continue;
      }
      const e = text[at + 1];
      const len = e === 'x' ? 2 : e === 'u' ? 4 : 0;
      const hex = text.slice(at + 2, at + 2 + len);
      parts.push(len > 0 ? String.fromCharCode(parseInt(hex, 16)) : (ESC[e] ?? `\\${e}`));
      at += 2 + len;
    }
    if (at >= text.length) fail('unterminated string');
    at++;
    return parts.join('');
  };
  const v = value();
  ws();
  if (at < text.length) fail('extra text');
  return v;
}
