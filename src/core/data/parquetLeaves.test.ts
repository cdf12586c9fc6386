import { describe, expect, it } from 'vitest';
import { pageText, utf8Text } from './parquetLeaves.ts';
import { asJson } from './parquet.ts';
import { loadDataset } from './load.ts';
import { cellsOf, harnessJsonl, harnessParquet } from '../../../test/support/data/harnessFiles.ts';
import { simulateNominal } from '../model/simulate.ts';
import { createRng } from '../model/rng.ts';

describe('utf8Text', () => {
  it('gives what TextDecoder gives, on ASCII, UTF-8 and invalid bytes of every short length', () => {
    const r = createRng(7).next;
    const dec = new TextDecoder();
    for (let n = 0; n < 6000; n++) {
      const len = Math.floor(r() * 48);
      const kind = n % 3;
      const b = new Uint8Array(len);
      for (let i = 0; i < len; i++)
        b[i] = kind === 0 ? Math.floor(r() * 128) : kind === 1 ? Math.floor(r() * 256) : 0xef;
      expect(utf8Text(b)).toBe(dec.decode(b));
    }
    const text = 'héllo wörld ✓ 𝄞 '.repeat(5);
    const bytes = new TextEncoder().encode(text);
    for (let s = 0; s < 12; s++)
      expect(utf8Text(bytes.subarray(s, s + 20))).toBe(dec.decode(bytes.subarray(s, s + 20)));
  });
});

describe('pageText', () => {
  it('gives what TextDecoder gives for views into ASCII and non-ASCII pages, taken in turn', () => {
    const r = createRng(3).next;
    const dec = new TextDecoder();
    const page = (ascii: boolean) => {
      const b = new Uint8Array(3000);
      for (let i = 0; i < b.length; i++) b[i] = Math.floor(r() * (ascii ? 128 : 256));
      return b;
    };
    const pages = [page(true), page(false), page(true)];
    for (let n = 0; n < 3000; n++) {
      const p = pages[Math.floor(r() * 3)];
      const at = Math.floor(r() * 2900);
      const v = p.subarray(at, at + Math.floor(r() * 100));
      expect(pageText(v)).toBe(dec.decode(v));
    }
    // A buffer over 4 MiB (an uncompressed file's) is read value by value.
    const big = new TextEncoder().encode('a✓b'.repeat(1 << 20));
    expect(pageText(big.subarray(10, 40))).toBe(dec.decode(big.subarray(10, 40)));
  });
});

describe('asJson', () => {
  it('gives what a JSON round trip gives (bigints as numbers)', () => {
    const r = createRng(11).next;
    const leaf = (): unknown => {
      const k = Math.floor(r() * 12);
      return [
        null,
        undefined,
        'text',
        true,
        -0,
        NaN,
        Infinity,
        r() * 100 - 50,
        BigInt(Math.floor(r() * 1e6)),
        new Date(Math.floor(r() * 1e12)),
        new Uint8Array([1, 2, 3]),
        2n ** 1100n,
      ][k];
    };
    const value = (depth: number): unknown => {
      if (depth === 0 || r() < 0.3) return leaf();
      if (r() < 0.5) return Array.from({ length: Math.floor(r() * 4) }, () => value(depth - 1));
      return Object.fromEntries(
        Array.from({ length: Math.floor(r() * 4) }, (_, i) => [`k${i}`, value(depth - 1)]),
      );
    };
    const replacer = (_: string, v: unknown) => (typeof v === 'bigint' ? Number(v) : v);
    for (let n = 0; n < 2000; n++) {
      const v = { row: value(4) };
      const want = JSON.parse(JSON.stringify(v, replacer));
      expect(asJson(v, '')).toEqual(want);
      expect(JSON.stringify(v)).toBe(JSON.stringify(want));
    }
  });
});

describe('harness details in Parquet', () => {
  it('read as the same records written as JSON lines', async () => {
    const { data } = simulateNominal({ J: 3, I: 40, seed: 5, concentration: 50 });
    const c = cellsOf(data);
    const load = (files: { name: string; text?: string; bytes?: Uint8Array }[]) =>
      loadDataset(
        files.map((f) => ({
          name: f.name,
          blob: new Blob([f.bytes ? new Uint8Array(f.bytes) : f.text!]),
        })),
      );
    const [pq, jl] = [await load(harnessParquet(c)), await load(harnessJsonl(c))];
    expect(pq.itemIds).toEqual(jl.itemIds);
    expect(pq.llmIds).toEqual(jl.llmIds);
    expect(Array.from(pq.key)).toEqual(Array.from(jl.key));
    expect(Array.from(pq.obs)).toEqual(Array.from(jl.obs));
    expect(pq.itemTexts).toEqual(jl.itemTexts);
  });
});
