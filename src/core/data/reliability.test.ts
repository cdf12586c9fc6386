/** Regression tests for what the property tests found, and the invalid-UTF-8 policy. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Utf8ChunkDecoder } from './decode.ts';
import { loadDataset } from './load.ts';
import { loadDatasetFromPaths } from '../../node/files.ts';
import { expectDataError, loadTexts } from '../../../test/support/data/utils.ts';

const W = 'model,item,key,A,B\n';
const wide = (...rows: string[]) => ({ 'w.csv': W + rows.join('\n') + '\n' });

describe('numbers the loaders used to accept or mangle', () => {
  it('rejects values beyond the float32 range instead of storing Infinity (NaN after renormalising)', async () => {
    await expectDataError(loadTexts(wide('m,q1,A,3.4028235677973366e+38,1')), {
      line: 2,
      column: 'A',
      message: /beyond the float32 range/,
    });
    const ok = await loadTexts(wide('m,q1,A,3e38,1e38'));
    expect(Array.from(ok.obs)).toEqual([0.75, 0.25]);
  });

  it('rejects hexadecimal, binary and octal literals and overflowing exponents', async () => {
    for (const v of ['0x10', '0B1', '0o7'])
      await expectDataError(loadTexts(wide(`m,q1,A,${v},1`)), {
        column: 'A',
        message: new RegExp(`non-numeric value '${v}'`),
      });
    await expectDataError(loadTexts(wide('m,q1,A,1e999,1')), { message: /'1e999' is infinite/ });
  });
});

describe('error messages stay short and on one line', () => {
  it('cuts long values and says how long they were', async () => {
    const e = await expectDataError(loadTexts(wide(`m,q1,A,${'x'.repeat(5000)},1`)), {
      line: 2,
      message: /non-numeric value 'x{60}… \(5000 characters\)'/,
    });
    expect(e.message.length).toBeLessThan(200);
  });

  it('escapes newlines and control characters of ids', async () => {
    const e = await expectDataError(loadTexts(wide('m,"q\n1",A,.5,.5', 'm,"q\n1",A,.5,.5')), {
      line: 4,
      message: /item 'q\\n1' was already given at line 2/,
    });
    expect(e.message).not.toContain('\n');
  });
});

describe('dense arrays too large for memory', () => {
  it('refuses a data set over the limit with a DataError, before allocating', async () => {
    // 40k rows with a distinct model and item each: 40k x 40k cells, ~37 GB of arrays.
    const rows = Array.from({ length: 40_000 }, (_, n) => `m${n},q${n},A,.5,.5`);
    await expectDataError(loadTexts(wide(...rows)), {
      file: 'w.csv',
      message:
        /40000 LLMs x 40000 items x 2 options: .* GiB of arrays, above the limit of 8\.0 GiB/,
    });
    await expectDataError(loadTexts(wide('m,q1,A,.5,.5', 'n,q2,A,.5,.5'), { maxDenseBytes: 50 }), {
      message: /2 LLMs x 2 items .* above the limit/,
    });
  });
});

describe('invalid UTF-8 becomes U+FFFD with a warning, never an exception', () => {
  const enc = new TextEncoder();
  const bytes = (...parts: (string | number[])[]) => {
    const arrays = parts.map((p) => (typeof p === 'string' ? enc.encode(p) : Uint8Array.from(p)));
    const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0));
    arrays.reduce((at, a) => (out.set(a, at), at + a.length), 0);
    return out;
  };
  // A Windows-1252 'é' (0xE9) on line 3 of an items file; a real U+FFFD may sit on line 2.
  const items = (real: string) =>
    bytes(`item,key,n_options,question\nq1,A,2,${real}\nq2,B,2,caf`, [0xe9], '\n');
  const data = 'model,item,key,A,B\nm,q1,A,.5,.5\nm,q2,B,.1,.9\n';
  const load = (itemsBytes: Uint8Array<ArrayBuffer>, chunkSize?: number) =>
    loadDataset(
      [
        { name: 'items.csv', blob: new Blob([itemsBytes]) },
        { name: 'w.csv', text: data },
      ],
      { chunkSize },
    );
  const utf8Warnings = (ds: { warnings: { message: string }[] }) =>
    ds.warnings.filter((x) => /invalid UTF-8/.test(x.message));

  it('replaces invalid bytes, warns with count and line, for any chunk size', async () => {
    for (const chunkSize of [1, 2, 3, 5, 64, undefined]) {
      const ds = await load(items('plain'), chunkSize);
      expect(ds.itemTexts?.map((t) => t?.question)).toEqual(['plain', 'caf\uFFFD']);
      expect(utf8Warnings(ds)).toEqual([
        expect.objectContaining({ file: 'items.csv', line: 3, count: 1 }),
      ]);
    }
  });

  it('does not count a real U+FFFD (bytes EF BF BD) as invalid', async () => {
    for (const chunkSize of [1, 2, 64]) {
      const ok = await load(
        bytes('item,key,n_options,question\nq1,A,2,\uFFFD\nq2,B,2,x\n'),
        chunkSize,
      );
      expect(utf8Warnings(ok)).toEqual([]);
      const both = await load(items('real \uFFFD here'), chunkSize);
      expect(both.itemTexts?.[0]?.question).toBe('real \uFFFD here');
      // The count is exact; the line is that of the first U+FFFD in the chunk (here line 2).
      expect(utf8Warnings(both)).toEqual([expect.objectContaining({ count: 1 })]);
    }
  });

  it('counts every kind of invalid sequence, including one cut off at the end', () => {
    const dec = new Utf8ChunkDecoder();
    const input = bytes(
      'a\n',
      [0x80],
      'b\n',
      [0xc0, 0xaf],
      '\uFFFD',
      [0xed, 0xa0, 0x80],
      [0xe2, 0x82],
    );
    let text = '';
    for (const b of input) text += dec.decode(Uint8Array.of(b));
    text += dec.end();
    expect(text.startsWith('a\n\uFFFDb\n')).toBe(true);
    expect(dec.firstLine).toBe(2);
    expect(dec.invalid).toBe([...text].filter((c) => c === '\uFFFD').length - 1);
  });

  it('warns the same way when reading from disk', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'utf8-'));
    writeFileSync(path.join(dir, 'items.csv'), items('plain'));
    writeFileSync(path.join(dir, 'w.csv'), data);
    const ds = await loadDatasetFromPaths([path.join(dir, 'items.csv'), path.join(dir, 'w.csv')]);
    expect(ds.warnings.find((x) => /invalid UTF-8/.test(x.message))).toMatchObject({
      line: 3,
      count: 1,
    });
  });
});
