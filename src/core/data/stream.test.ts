import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assembleDataset } from './assemble.ts';
import { DatasetBuilder } from './builder.ts';
import { createItemsParser } from './items.ts';
import { loadDataset } from './load.ts';
import { createWideParser } from './wide.ts';
import { loadTexts } from '../../../test/support/data/utils.ts';

const ITEMS =
  '\uFEFFitem,key,n_options,question,option_A,option_B,option_C\r\n' +
  'q1,A,3,"Line one\r\nline ""two"", with commas",a,b,c\r\n' +
  '\r\n' +
  'q2,B,2,"é, ü and ""quotes""",yes,no,\r\n' +
  'q3,A,2,a 5" screen,x,"y\r\nz",\r\n';
const WIDE =
  'model,item,key,n_options,A,B,C\nm,q1,A,3,.5,.3,.2\nm,q2,B,2,.4,.6,\nn,q2,B,2,.1,.9,\nn,q3,A,2,.5,.5,\n';

/** Feeds `text` to a fresh builder in the given chunk sizes. */
function feed(text: string, sizes: number[]) {
  const b = new DatasetBuilder();
  const items = createItemsParser('items.csv', b);
  let at = 0;
  for (let n = 0; at < text.length; n++) {
    const size = sizes[n % sizes.length];
    items.push(text.slice(at, at + size));
    at += size;
  }
  items.finish();
  const wide = createWideParser('w.csv', b);
  wide.push(WIDE);
  wide.finish();
  return assembleDataset(b);
}

describe('incremental parsing', () => {
  it('gives the same result however the text is cut into chunks', () => {
    const whole = feed(ITEMS, [ITEMS.length]);
    expect(whole.itemTexts?.[0]?.question).toBe('Line one\r\nline "two", with commas');
    expect(whole.itemTexts?.[1]).toEqual({ question: 'é, ü and "quotes"', options: ['yes', 'no'] });
    // A quote inside an unquoted field is a literal character, as in Papa.
    expect(whole.itemTexts?.[2]).toEqual({ question: 'a 5" screen', options: ['x', 'y\r\nz'] });
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 8 }),
        (sizes) => {
          const ds = feed(ITEMS, sizes);
          expect(ds.itemTexts).toEqual(whole.itemTexts);
          expect(ds.key).toEqual(whole.key);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reports progress in bytes and rows', () => {
    const b = new DatasetBuilder();
    const calls: [number, number][] = [];
    const p = createWideParser('w.csv', b, {
      onProgress: (bytes, rows) => calls.push([bytes, rows]),
    });
    p.push(WIDE.slice(0, 40), 40);
    p.push(WIDE.slice(40), 100);
    p.finish();
    expect(calls).toEqual([
      [40, 0],
      [140, 4],
    ]);
    expect(p.rows).toBe(4);
  });

  it('reports progress over all files from loadDataset', async () => {
    const seen: number[] = [];
    let lastRows = 0;
    const blob = new Blob([WIDE]);
    await loadDataset([{ name: 'w.csv', blob }], {
      chunkSize: 16,
      onProgress: (bytes, rows, at) => {
        seen.push(bytes);
        lastRows = rows;
        expect(at).toEqual({ file: 'w.csv', totalBytes: blob.size });
      },
    });
    expect(seen[seen.length - 1]).toBe(blob.size);
    expect(seen).toEqual([...seen].sort((x, y) => x - y));
    expect(lastRows).toBe(4);
  });

  it('stops when aborted', async () => {
    const ac = new AbortController();
    const p = createWideParser('w.csv', new DatasetBuilder(), { signal: ac.signal });
    p.push(WIDE.slice(0, 10));
    ac.abort();
    expect(() => p.push(WIDE.slice(10))).toThrow(/abort/i);
    const ac2 = new AbortController();
    const load = loadTexts(
      { 'w.csv': WIDE },
      {
        signal: ac2.signal,
        chunkSize: 8,
        onProgress: () => ac2.abort(),
      },
    );
    await expect(load).rejects.toThrow(/abort/i);
  });
});
