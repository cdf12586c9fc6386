import { describe, expect, it } from 'vitest';
import { parsePyLiteral, pyValue } from './pyLiteral.ts';

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
});
