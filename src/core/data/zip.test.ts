/**
 * The ZIP reader and DEFLATE decoder behind Inspect `.eval` logs: every
 * compression level and block type against fflate's encoder and node:zlib's,
 * archives written by fflate and by Python's zipfile (ZIP64 extra fields), a
 * hand-built ZIP64 central directory, and malformed streams refused.
 */
import { constants, deflateRawSync } from 'node:zlib';
import { deflateSync, strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { entryData, Inflater, zipEntries, type ZipEntry } from './zip.ts';

/** Deterministic bytes: runs, repeats at varied distances, and a skewed alphabet. */
function sampleBytes(size: number, seed: number): Uint8Array {
  let s = seed >>> 0 || 1;
  const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const out = new Uint8Array(size);
  const alpha = 1 + Math.floor(rand() * 255);
  for (let i = 0; i < size; i++)
    out[i] =
      i > 4 && rand() < 0.5
        ? out[i - 1 - Math.floor(rand() * Math.min(i - 1, 40_000))]
        : Math.floor(rand() ** 2 * alpha);
  return out;
}

const inflated = (src: Uint8Array, size: number) => {
  const out = new Uint8Array(size);
  new Inflater().inflate(src, out);
  return out;
};

describe('Inflater', () => {
  it('decodes fflate and zlib streams at every level and strategy', () => {
    const inf = new Inflater();
    const strategies = [
      constants.Z_DEFAULT_STRATEGY,
      constants.Z_FIXED,
      constants.Z_HUFFMAN_ONLY,
      constants.Z_RLE,
    ];
    let n = 0;
    for (const size of [0, 1, 7, 300, 1_000, 70_000, 200_000])
      for (let level = 0; level <= 9; level++) {
        const raw = sampleBytes(size, size * 31 + level);
        const streams = [
          deflateSync(raw, { level: level as 0 }),
          new Uint8Array(deflateRawSync(raw, { level, strategy: strategies[level % 4] })),
        ];
        for (const c of streams) {
          const out = new Uint8Array(size);
          inf.inflate(c, out);
          expect(Buffer.compare(Buffer.from(out), Buffer.from(raw)), `${size} @${level}`).toBe(0);
          n++;
        }
      }
    expect(n).toBe(140);
  });

  it('refuses malformed streams', () => {
    const raw = strToU8('{"id":1,"choices":["A","B"]} '.repeat(40));
    const c = deflateSync(raw, { level: 9 });
    expect(() => inflated(c.subarray(0, c.length >> 1), raw.length)).toThrow(/invalid DEFLATE/);
    expect(() => inflated(c, raw.length - 1)).toThrow(/longer than its stated size/);
    expect(() => inflated(c, raw.length + 1)).toThrow(/inflated to \d+ bytes, \d+ stated/);
    expect(() => inflated(new Uint8Array([0x07]), 1)).toThrow(/block type 3/);
    // A fixed block whose first symbol is a match at distance 1 with no output yet.
    expect(() => inflated(new Uint8Array([0x03, 0x02]), 10)).toThrow(/distance too far back/);
  });
});

describe('zipEntries', () => {
  it('lists and extracts the members of an fflate ZIP (stored and DEFLATE)', () => {
    const files = {
      'header.json': strToU8('{"eval":{"model":"m"}}'),
      'samples/1_epoch_1.json': sampleBytes(5_000, 3),
      'samples/2_epoch_1.json': sampleBytes(0, 4),
    };
    const zip = zipSync({
      'header.json': [files['header.json'], { level: 0 }],
      'samples/1_epoch_1.json': [files['samples/1_epoch_1.json'], { level: 6 }],
      'samples/2_epoch_1.json': [files['samples/2_epoch_1.json'], { level: 6 }],
    });
    const entries = zipEntries(zip);
    expect(entries.map((e) => [e.name, e.method, e.size])).toEqual([
      ['header.json', 0, 22],
      ['samples/1_epoch_1.json', 8, 5_000],
      ['samples/2_epoch_1.json', 8, 0],
    ]);
    const inf = new Inflater();
    for (const e of entries) {
      const data = entryData(zip, e);
      const out = e.method === 0 ? data : new Uint8Array(e.size);
      if (e.method === 8) inf.inflate(data, out);
      expect(Buffer.from(out)).toEqual(Buffer.from(files[e.name as keyof typeof files]));
    }
  });

  it("reads Python zipfile's ZIP64 local headers (force_zip64)", () => {
    const zip = new Uint8Array(
      Buffer.from(
        'UEsDBC0AAAAIAAAAIQCqj5v3//////////8WABQAc2FtcGxlcy8xX2Vwb2NoXzEuanNvbgEAEAASAAAAAAAAABIAAAAAAAAAq1bKTFGyMtRRSi3IT84AsmoBUEsDBBQAAAAIAFiJg12YQdJ9FgAAABQAAAALAAAAaGVhZGVyLmpzb26rViouSSwpLVayUiouTU5OLS5WqgUAUEsBAi0DLQAAAAgAAAAhAKqPm/cSAAAAEgAAABYAAAAAAAAAAAAAAIABAAAAAHNhbXBsZXMvMV9lcG9jaF8xLmpzb25QSwECFAMUAAAACABYiYNdmEHSfRYAAAAUAAAACwAAAAAAAAAAAAAAgAFaAAAAaGVhZGVyLmpzb25QSwUGAAAAAAIAAgB9AAAAmQAAAAAA',
        'base64',
      ),
    );
    const dec = new TextDecoder();
    const text = (e: ZipEntry) => dec.decode(inflated(entryData(zip, e), e.size));
    expect(zipEntries(zip).map((e) => [e.name, text(e)])).toEqual([
      ['samples/1_epoch_1.json', '{"id":1,"epoch":1}'],
      ['header.json', '{"status":"success"}'],
    ]);
  });

  it('reads a ZIP64 central directory and end record', () => {
    const name = strToU8('header.json');
    const body = strToU8('{"a":1}');
    const b: number[] = [];
    const u16 = (v: number) => b.push(v & 0xff, (v >>> 8) & 0xff);
    const u32 = (v: number) => {
      u16(v & 0xffff);
      u16(v >>> 16);
    };
    const u64 = (v: number) => {
      u32(v);
      u32(0);
    };
    const w = (f: (v: number) => unknown, ...vs: number[]) => vs.forEach((v) => f(v));
    // Local header (stored), the name, the data.
    w(u32, 0x04034b50);
    w(u16, 45, 0, 0);
    w(u32, 0, 0, body.length, body.length);
    w(u16, name.length, 0);
    b.push(...name, ...body);
    const dir = b.length;
    // Central header: sizes and offset 0xFFFFFFFF, in the ZIP64 extra field instead.
    w(u32, 0x02014b50);
    w(u16, 45, 45, 0, 0);
    w(u32, 0, 0, 0xffffffff, 0xffffffff);
    w(u16, name.length, 28, 0, 0, 0);
    w(u32, 0, 0xffffffff);
    b.push(...name);
    w(u16, 1, 24);
    w(u64, body.length, body.length, 0);
    const dirSize = b.length - dir;
    const end64 = b.length;
    w(u32, 0x06064b50);
    w(u64, 44);
    w(u16, 45, 45);
    w(u32, 0, 0);
    w(u64, 1, 1, dirSize, dir);
    w(u32, 0x07064b50, 0);
    w(u64, end64);
    w(u32, 1, 0x06054b50);
    w(u16, 0, 0, 0xffff, 0xffff);
    w(u32, 0xffffffff, 0xffffffff);
    w(u16, 0);
    const zip = Uint8Array.from(b);
    const [e] = zipEntries(zip);
    expect(e).toMatchObject({ name: 'header.json', method: 0, size: 7, offset: 0 });
    expect(new TextDecoder().decode(entryData(zip, e))).toBe('{"a":1}');
  });

  it('refuses what is not a ZIP, and a truncated one', () => {
    expect(() => zipEntries(strToU8('{"not":"a zip"}'))).toThrow(/not a ZIP archive/);
    const zip = zipSync({ 'a.json': strToU8('{}') });
    expect(() => zipEntries(zip.subarray(10))).toThrow(/central directory entry 1 of 1/);
  });
});
