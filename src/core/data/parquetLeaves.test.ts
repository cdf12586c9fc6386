import { describe, expect, it } from 'vitest';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { pageText, readStructColumn, utf8Text } from './parquetLeaves.ts';
import { asJson } from './parquet.ts';
import { loadDataset } from './load.ts';
import { cellsOf, harnessJsonl, harnessParquet } from '../../../test/support/data/harnessFiles.ts';
import { simulateNominal } from '../model/simulate.ts';

/** A small seeded generator (mulberry32). */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

describe('utf8Text', () => {
  it('gives what TextDecoder gives, on ASCII, UTF-8 and invalid bytes of every short length', () => {
    const r = rng(7);
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

type El = NonNullable<Parameters<typeof parquetWriteBuffer>[0]['schema']>[number];
const str = (name: string, rep: 'OPTIONAL' | 'REQUIRED' = 'OPTIONAL'): El => ({
  name,
  type: 'BYTE_ARRAY',
  converted_type: 'UTF8',
  repetition_type: rep,
});

/** A file with `arguments`: struct of K gen_args_k structs {arg_0, arg_1}, nulls at every level. */
function argumentsFile(seed: number, rows: number, opts: { required?: boolean } = {}) {
  const r = rng(seed);
  const K = 4;
  const words = [
    '',
    'a',
    ' red',
    ' blue green',
    'é ✓',
    'Question: which one?\nAnswer:',
    'x'.repeat(40),
  ];
  const pick = () => words[Math.floor(r() * words.length)];
  const nullable = (p: number, v: () => unknown) => (r() < p ? null : v());
  const data = Array.from({ length: rows }, () =>
    nullable(opts.required ? 0 : 0.1, () =>
      Object.fromEntries(
        Array.from({ length: K }, (_, k) => [
          `gen_args_${k}`,
          nullable(opts.required ? 0 : 0.2, () => ({
            arg_0: nullable(opts.required ? 0 : 0.1, pick),
            arg_1: nullable(opts.required ? 0 : 0.1, pick),
          })),
        ]),
      ),
    ),
  );
  const rep = opts.required ? 'REQUIRED' : 'OPTIONAL';
  const schema: El[] = [
    { name: 'schema', num_children: 2 },
    { name: 'doc_id', type: 'INT64', repetition_type: 'OPTIONAL' },
    { name: 'arguments', repetition_type: rep, num_children: K },
    ...Array.from({ length: K }, (_, k): El[] => [
      { name: `gen_args_${k}`, repetition_type: rep, num_children: 2 },
      str('arg_0', rep),
      str('arg_1', rep),
    ]).flat(),
  ];
  const buf = parquetWriteBuffer({
    schema,
    columnData: [
      { name: 'doc_id', data: data.map((_, i) => BigInt(i)) },
      { name: 'arguments', data },
    ],
    rowGroupSize: 97,
    pageSize: 512,
  });
  return buf;
}

describe('pageText', () => {
  it('gives what TextDecoder gives for views into ASCII and non-ASCII pages, taken in turn', () => {
    const r = rng(3);
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
  });
});

describe('readStructColumn', () => {
  it('gives the rows parquetReadObjects gives, nulls at every level, over row groups and pages', async () => {
    for (const [seed, required] of [
      [1, false],
      [2, false],
      [3, true],
    ] as const) {
      const buf = argumentsFile(seed, 400, { required });
      const metadata = parquetMetadata(buf);
      expect(metadata.row_groups.length).toBeGreaterThan(1);
      const want = (await parquetReadObjects({ file: buf, metadata, columns: ['arguments'] })).map(
        (row) => row.arguments,
      );
      expect(readStructColumn(buf, metadata, 'arguments')).toEqual(want);
    }
  });

  it('refuses a column that is not a struct of strings', () => {
    const buf = argumentsFile(4, 10);
    expect(() => readStructColumn(buf, parquetMetadata(buf), 'doc_id')).toThrow(/not a struct/);
  });
});

describe('asJson', () => {
  it('gives what a JSON round trip gives (bigints as numbers)', () => {
    const r = rng(11);
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
