import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DatasetBuilder } from './builder.ts';
import { JsonlChunkReader } from './jsonl.ts';
import { RowEndScanner } from './pending.ts';
import { expectDataError, loadTexts } from '../../../test/support/data/utils.ts';
import { createWideParser } from './wide.ts';

/** The scan the reader used before: rescan the whole tail from its row start. */
function lastRowEndFromScratch(text: string): number {
  let pos = 0;
  let quoted = false;
  let cut = -1;
  for (;;) {
    if (quoted) {
      const close = text.indexOf('"', pos);
      if (close < 0) break;
      if (text[close + 1] === '"') pos = close + 2;
      else [quoted, pos] = [false, close + 1];
    } else {
      const open = text.indexOf('"', pos);
      const nl = text.lastIndexOf('\n', (open < 0 ? text.length : open) - 1);
      if (nl >= pos) cut = nl;
      if (open < 0) break;
      quoted = open === 0 || ',\n\r'.includes(text[open - 1]);
      pos = open + 1;
    }
  }
  return cut;
}

/** The pieces a reader hands to Papa, with the scanner or by rescanning. */
function pieces(chunks: string[], incremental: boolean): string[] {
  const out: string[] = [];
  const scanner = new RowEndScanner();
  let tail = '';
  for (const c of chunks) {
    if (incremental) {
      const cut = scanner.scan(c);
      if (cut < 0) tail += c;
      else [out[out.length], tail] = [tail + c.slice(0, cut + 1), c.slice(cut + 1)];
    } else {
      const text = tail + c;
      const cut = lastRowEndFromScratch(text);
      if (cut < 0) tail = text;
      else [out[out.length], tail] = [text.slice(0, cut + 1), text.slice(cut + 1)];
    }
  }
  return [...out, tail];
}

describe('row ends across chunks', () => {
  it('the one-pass scanner cuts exactly where rescanning from the row start does', () => {
    const text = fc.string({
      unit: fc.constantFrom('"', '"', ',', '\n', '\r', 'a'),
      maxLength: 60,
    });
    const cuts = fc.array(fc.nat(60), { maxLength: 8 });
    fc.assert(
      fc.property(text, cuts, (t, at) => {
        const bounds = [...new Set([0, ...at.map((n) => n % (t.length + 1)), t.length])];
        bounds.sort((a, b) => a - b);
        const chunks = bounds.slice(1).map((end, n) => t.slice(bounds[n], end));
        expect(pieces(chunks, true)).toEqual(pieces(chunks, false));
      }),
      { numRuns: 2000 },
    );
  });

  it('caps a row left open by a quote, naming the line it starts on', () => {
    const p = createWideParser('w.csv', new DatasetBuilder(), { maxRowChars: 1000 });
    p.push('model,item,key,A,B\nm,q1,A,.5,.5\nm,"q2,A,.5,.5\n');
    expect(() => {
      for (let n = 0; n < 20; n++) p.push('x'.repeat(100) + '\n');
    }).toThrow(/w\.csv, line 3: a row longer than 1000 characters starts here/);
  });

  it('caps a JSON line and says so for files with CR-only line ends', () => {
    const r = new JsonlChunkReader('a.jsonl', () => {}, { maxRowChars: 100 });
    r.push('{"a": 1}\n{"b": ');
    expect(() => r.push('1'.repeat(200))).toThrow(/a\.jsonl, line 2: a row longer than 100/);
    const p = createWideParser('w.csv', new DatasetBuilder(), { maxRowChars: 100 });
    expect(() => p.push('model,item,key,A,B\rm,q1,A,.5,.5\r'.repeat(10))).toThrow(
      /line 1: no line break in the first 100 characters, only carriage returns/,
    );
  });

  it('reads CR-only (classic Mac) files and counts their lines', async () => {
    const text = 'model,item,key,A,B\rm,q1,A,.5,.5\rm,q2,A,.4,.6\r';
    const ds = await loadTexts({ 'w.csv': text }, { chunkSize: 7 });
    expect(ds.itemIds).toEqual(['q1', 'q2']);
    await expectDataError(loadTexts({ 'w.csv': `${text}m,q3,X,.5,.5\r` }), {
      line: 4,
      column: 'key',
      message: /key 'X'/,
    });
  });
});
