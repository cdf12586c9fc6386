// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { toCsv } from './csv';

describe('toCsv', () => {
  it('writes a header and CRLF-terminated records in column order', () => {
    expect(
      toCsv([
        { id: 'a', theta: 0.5 },
        { theta: -1, id: 'b' },
      ]),
    ).toBe('id,theta\r\na,0.5\r\nb,-1\r\n');
  });

  it('quotes fields with commas, quotes and line breaks (RFC 4180)', () => {
    const csv = toCsv([{ text: 'Saturn, the "ringed" planet', note: 'line1\nline2' }]);
    expect(csv).toBe('text,note\r\n"Saturn, the ""ringed"" planet","line1\nline2"\r\n');
  });

  it('neutralises formula-like strings but keeps numbers numeric', () => {
    const rows = [
      { v: '=HYPERLINK("http://x")' },
      { v: '+1' },
      { v: '-0.53' },
      { v: '@SUM(A1)' },
      { v: '\tx' },
      { v: '\rx' },
      { v: -0.53 },
      { v: 1e-7 },
      { v: 'a=b' },
    ];
    const lines = toCsv(rows).split('\r\n');
    expect(lines.slice(1, -1)).toEqual([
      `"'=HYPERLINK(""http://x"")"`,
      "'+1",
      "'-0.53",
      "'@SUM(A1)",
      "'\tx",
      `"'\rx"`,
      '-0.53',
      '1e-7',
      'a=b',
    ]);
  });

  it('honours explicit columns, including headers that need escaping', () => {
    expect(toCsv([{ a: 1, b: 2, '=c': 3 }], ['=c', 'a'])).toBe("'=c,a\r\n3,1\r\n");
  });

  it('writes empty cells for missing and non-finite values', () => {
    expect(
      toCsv<Record<string, unknown>>(
        [{ a: null, b: undefined, c: NaN, d: Infinity, e: true }],
        ['a', 'b', 'c', 'd', 'e', 'f'],
      ),
    ).toBe('a,b,c,d,e,f\r\n,,,,true,\r\n');
  });

  it('serialises nested values as JSON', () => {
    expect(toCsv([{ probs: [0.1, 0.9] }])).toBe('probs\r\n"[0.1,0.9]"\r\n');
  });
});
