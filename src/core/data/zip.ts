/**
 * ZIP archives for Inspect `.eval` logs: the central directory (ZIP64 too) and a
 * raw DEFLATE decoder (RFC 1951) written for archives of thousands of small
 * members. A general inflater builds each block's Huffman lookup at its longest
 * code (up to 2^15 entries); a sample of a few KB is one or two blocks, so that
 * set-up was most of the time (fflate's `unzipSync` read a log of 5,000 samples
 * at 14 MB/s in Node). Here the tables are built once per archive and reused,
 * with a 2^10 lookup and a canonical walk for the rare longer codes, and each
 * member is inflated into a buffer of its stated size.
 */

/** A member of the archive, located but not yet decompressed. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 DEFLATE, 93 Zstandard, others unsupported. */
  method: number;
  compressedSize: number;
  size: number;
  /** Byte offset of its local header. */
  offset: number;
  encrypted: boolean;
}

const u16 = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8);
const u32 = (b: Uint8Array, at: number) =>
  (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
const u64 = (b: Uint8Array, at: number) => u32(b, at) + u32(b, at + 4) * 2 ** 32;

/** The archive's members from its central directory; throws on a malformed archive. */
export function zipEntries(bytes: Uint8Array): ZipEntry[] {
  // End of central directory: 22 bytes and a comment of up to 65,535.
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--)
    if (u32(bytes, at) === 0x06054b50) {
      end = at;
      break;
    }
  if (end < 0) throw new Error('not a ZIP archive (no end of central directory)');
  let count = u16(bytes, end + 10);
  let dirAt = u32(bytes, end + 16);
  // ZIP64: a locator just before the end record points at the ZIP64 end record.
  if (end >= 20 && u32(bytes, end - 20) === 0x07064b50) {
    const z = u64(bytes, end - 12);
    if (z + 56 > bytes.length || u32(bytes, z) !== 0x06064b50)
      throw new Error('the ZIP64 end of central directory is missing');
    count = u64(bytes, z + 32);
    dirAt = u64(bytes, z + 48);
  }
  const dec = new TextDecoder();
  const out: ZipEntry[] = [];
  let at = dirAt;
  for (let n = 0; n < count; n++) {
    if (at + 46 > bytes.length || u32(bytes, at) !== 0x02014b50)
      throw new Error(`central directory entry ${n + 1} of ${count} is missing`);
    const flags = u16(bytes, at + 8);
    const nameLen = u16(bytes, at + 28);
    const extraLen = u16(bytes, at + 30);
    let compressedSize = u32(bytes, at + 20);
    let size = u32(bytes, at + 24);
    let offset = u32(bytes, at + 42);
    // ZIP64 extended information (0x0001): the 0xFFFFFFFF fields, in this order.
    let e = at + 46 + nameLen;
    const extraEnd = e + extraLen;
    for (; e + 4 <= extraEnd; e += 4 + u16(bytes, e + 2)) {
      if (u16(bytes, e) !== 1) continue;
      let f = e + 4;
      if (size === 0xffffffff) {
        size = u64(bytes, f);
        f += 8;
      }
      if (compressedSize === 0xffffffff) {
        compressedSize = u64(bytes, f);
        f += 8;
      }
      if (offset === 0xffffffff) offset = u64(bytes, f);
    }
    out.push({
      name: dec.decode(bytes.subarray(at + 46, at + 46 + nameLen)),
      method: u16(bytes, at + 10),
      compressedSize,
      size,
      offset,
      encrypted: (flags & 1) !== 0,
    });
    at = extraEnd + u16(bytes, at + 32);
  }
  return out;
}

/** A member's compressed bytes (after its local header). */
export function entryData(bytes: Uint8Array, e: ZipEntry): Uint8Array {
  if (e.offset + 30 > bytes.length || u32(bytes, e.offset) !== 0x04034b50)
    throw new Error(`${e.name}: its local header is missing`);
  const start = e.offset + 30 + u16(bytes, e.offset + 26) + u16(bytes, e.offset + 28);
  if (start + e.compressedSize > bytes.length) throw new Error(`${e.name}: truncated`);
  return bytes.subarray(start, start + e.compressedSize);
}

// --- DEFLATE (RFC 1951) ---

const LEN_BASE = new Uint16Array([
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
  163, 195, 227, 258,
]);
const LEN_EXTRA = new Uint8Array([
  0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
]);
const DIST_BASE = new Uint16Array([
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049,
  3073, 4097, 6145, 8193, 12289, 16385, 24577,
]);
const DIST_EXTRA = new Uint8Array([
  0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
]);
/** Order of the code-length code lengths in a dynamic block header. */
const CL_ORDER = new Uint8Array([16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]);

/** Bit reversal of 15-bit values (DEFLATE sends Huffman codes most significant bit first). */
const REV15 = new Uint16Array(1 << 15);
for (let i = 1; i < 1 << 15; i++) REV15[i] = (REV15[i >>> 1] >>> 1) | ((i & 1) << 14);

/**
 * A canonical Huffman code: a lookup on the next `bits` bits (symbol << 4 |
 * length, 0 for a longer code) and the canonical tables for the longer codes.
 */
class Huffman {
  readonly fast: Uint16Array;
  readonly mask: number;
  readonly count = new Uint16Array(16);
  readonly symbol: Uint16Array;
  private readonly next = new Uint16Array(16);
  constructor(
    n: number,
    readonly bits: number,
  ) {
    this.symbol = new Uint16Array(n);
    this.fast = new Uint16Array(1 << bits);
    this.mask = (1 << bits) - 1;
  }
  /** Builds the code from lengths[at..at + n); throws on an over-subscribed set. */
  build(lengths: Uint8Array, n: number, at: number): void {
    const { count, symbol, fast, next, bits } = this;
    count.fill(0);
    for (let s = 0; s < n; s++) count[lengths[at + s]]++;
    count[0] = 0;
    let left = 1;
    for (let len = 1; len < 16; len++) {
      left = (left << 1) - count[len];
      if (left < 0) throw new Error('invalid DEFLATE data (over-subscribed code)');
    }
    next[1] = 0;
    for (let len = 1; len < 15; len++) next[len + 1] = next[len] + count[len];
    for (let s = 0; s < n; s++) {
      const len = lengths[at + s];
      if (len) symbol[next[len]++] = s;
    }
    fast.fill(0);
    let code = 0;
    let index = 0;
    const size = 1 << bits;
    for (let len = 1; len <= bits; len++) {
      const step = 1 << len;
      for (let c = count[len]; c > 0; c--, code++, index++) {
        const entry = (symbol[index] << 4) | len;
        for (let i = REV15[code] >>> (15 - len); i < size; i += step) fast[i] = entry;
      }
      code <<= 1;
    }
  }
}

/** Reusable decoder state: the tables are allocated once. */
export class Inflater {
  private readonly lit = new Huffman(288, 10);
  private readonly dist = new Huffman(30, 8);
  private readonly clen = new Huffman(19, 7);
  private readonly lengths = new Uint8Array(288 + 32);
  private readonly fixedLit = new Huffman(288, 9);
  private readonly fixedDist = new Huffman(30, 5);
  private src: Uint8Array = new Uint8Array(0);
  private pos = 0;
  private buf = 0;
  private cnt = 0;

  constructor() {
    const l = new Uint8Array(288);
    l.fill(8, 0, 144);
    l.fill(9, 144, 256);
    l.fill(7, 256, 280);
    l.fill(8, 280, 288);
    this.fixedLit.build(l, 288, 0);
    this.fixedDist.build(new Uint8Array(30).fill(5), 30, 0);
  }

  /** Ensures at least n (≤ 24) bits in the buffer; bytes past the end read as 0. */
  private need(n: number): void {
    while (this.cnt < n) {
      this.buf |= (this.pos < this.src.length ? this.src[this.pos] : 0) << this.cnt;
      this.pos++;
      this.cnt += 8;
    }
  }

  private bits(n: number): number {
    this.need(n);
    const v = this.buf & ((1 << n) - 1);
    this.buf >>>= n;
    this.cnt -= n;
    return v;
  }

  /** The next symbol of a code longer than its lookup: the canonical walk, one bit at a time. */
  private slow(h: Huffman): number {
    this.need(16);
    let code = 0;
    let first = 0;
    let index = 0;
    for (let len = 1; len < 16; len++) {
      code |= (this.buf >>> (len - 1)) & 1;
      const c = h.count[len];
      if (code - first < c) {
        this.buf >>>= len;
        this.cnt -= len;
        return h.symbol[index + code - first];
      }
      index += c;
      first = (first + c) << 1;
      code <<= 1;
    }
    throw new Error('invalid DEFLATE data (no such code)');
  }

  /** Inflates raw DEFLATE `src` into `out`, which must be exactly the stated size. */
  inflate(src: Uint8Array, out: Uint8Array): void {
    this.src = src;
    this.pos = 0;
    this.buf = 0;
    this.cnt = 0;
    let o = 0;
    const size = out.length;
    const srcLen = src.length;
    let final: number;
    do {
      final = this.bits(1);
      const type = this.bits(2);
      if (type === 0) {
        // Stored: to a byte boundary (whole bytes in the bit buffer go back), LEN and NLEN, then the bytes.
        this.pos -= this.cnt >>> 3;
        this.buf = 0;
        this.cnt = 0;
        const at = this.pos;
        if (at + 4 > srcLen) throw new Error('invalid DEFLATE data (truncated)');
        const len = src[at] | (src[at + 1] << 8);
        if ((len ^ (src[at + 2] | (src[at + 3] << 8))) !== 0xffff)
          throw new Error('invalid DEFLATE data (stored block length)');
        if (at + 4 + len > srcLen || o + len > size)
          throw new Error('invalid DEFLATE data (stored block overruns)');
        out.set(src.subarray(at + 4, at + 4 + len), o);
        o += len;
        this.pos = at + 4 + len;
        continue;
      }
      let lit: Huffman;
      let dist: Huffman;
      if (type === 1) {
        lit = this.fixedLit;
        dist = this.fixedDist;
      } else if (type === 2) {
        this.dynamic();
        lit = this.lit;
        dist = this.dist;
      } else throw new Error('invalid DEFLATE data (block type 3)');
      // The symbol loop, on local copies of the bit buffer.
      const litFast = lit.fast;
      const litMask = lit.mask;
      const distFast = dist.fast;
      const distMask = dist.mask;
      let buf = this.buf;
      let cnt = this.cnt;
      let pos = this.pos;
      for (;;) {
        // Up to 15 + 5 bits for a length and its extra bits.
        while (cnt < 24) {
          buf |= (pos < srcLen ? src[pos] : 0) << cnt;
          pos++;
          cnt += 8;
        }
        let sym: number;
        let e = litFast[buf & litMask];
        if (e !== 0) {
          buf >>>= e & 15;
          cnt -= e & 15;
          sym = e >>> 4;
        } else {
          this.buf = buf;
          this.cnt = cnt;
          this.pos = pos;
          sym = this.slow(lit);
          ({ buf, cnt, pos } = this);
        }
        if (sym < 256) {
          if (o >= size) throw new Error('invalid DEFLATE data (longer than its stated size)');
          out[o++] = sym;
          // A second literal from the bits already buffered (a literal's code is within the lookup).
          if (cnt >= 10) {
            e = litFast[buf & litMask];
            if (e !== 0 && e >>> 4 < 256) {
              if (o >= size) throw new Error('invalid DEFLATE data (longer than its stated size)');
              buf >>>= e & 15;
              cnt -= e & 15;
              out[o++] = e >>> 4;
            }
          }
          continue;
        }
        if (sym === 256) break;
        const li = sym - 257;
        if (li >= 29) throw new Error('invalid DEFLATE data (length code)');
        const lx = LEN_EXTRA[li];
        const len = LEN_BASE[li] + (buf & ((1 << lx) - 1));
        buf >>>= lx;
        cnt -= lx;
        // Up to 15 + 13 bits for a distance.
        while (cnt < 24) {
          buf |= (pos < srcLen ? src[pos] : 0) << cnt;
          pos++;
          cnt += 8;
        }
        let di: number;
        e = distFast[buf & distMask];
        if (e !== 0) {
          buf >>>= e & 15;
          cnt -= e & 15;
          di = e >>> 4;
        } else {
          this.buf = buf;
          this.cnt = cnt;
          this.pos = pos;
          di = this.slow(dist);
          ({ buf, cnt, pos } = this);
        }
        if (di >= 30) throw new Error('invalid DEFLATE data (distance code)');
        const dx = DIST_EXTRA[di];
        if (cnt < dx) {
          buf |= (pos < srcLen ? src[pos] : 0) << cnt;
          pos++;
          cnt += 8;
        }
        const d = DIST_BASE[di] + (buf & ((1 << dx) - 1));
        buf >>>= dx;
        cnt -= dx;
        if (d > o) throw new Error('invalid DEFLATE data (distance too far back)');
        if (o + len > size) throw new Error('invalid DEFLATE data (longer than its stated size)');
        // copyWithin is a call; short matches (most of them) are copied inline.
        if (d >= len && len > 32) {
          out.copyWithin(o, o - d, o - d + len);
          o += len;
        } else for (let end = o + len; o < end; o++) out[o] = out[o - d];
      }
      this.buf = buf;
      this.cnt = cnt;
      this.pos = pos;
      if (this.pos - (this.cnt >>> 3) > srcLen) throw new Error('invalid DEFLATE data (truncated)');
    } while (!final);
    if (this.pos - (this.cnt >>> 3) > srcLen) throw new Error('invalid DEFLATE data (truncated)');
    if (o !== size) throw new Error(`inflated to ${o} bytes, ${size} stated`);
  }

  /** Reads a dynamic block's code lengths and builds its two codes. */
  private dynamic(): void {
    const nlen = this.bits(5) + 257;
    const ndist = this.bits(5) + 1;
    const ncode = this.bits(4) + 4;
    if (nlen > 286 || ndist > 30) throw new Error('invalid DEFLATE data (code counts)');
    const lengths = this.lengths;
    lengths.fill(0, 0, 19);
    for (let i = 0; i < ncode; i++) lengths[CL_ORDER[i]] = this.bits(3);
    const clen = this.clen;
    clen.build(lengths, 19, 0);
    // Code-length codes are at most 7 bits, all in the lookup.
    const fast = clen.fast;
    const src = this.src;
    const srcLen = src.length;
    let { buf, cnt, pos } = this;
    const total = nlen + ndist;
    let i = 0;
    while (i < total) {
      // 7 bits of code and up to 7 extra bits.
      while (cnt < 16) {
        buf |= (pos < srcLen ? src[pos] : 0) << cnt;
        pos++;
        cnt += 8;
      }
      const e = fast[buf & 127];
      if (e === 0) throw new Error('invalid DEFLATE data (no such code)');
      buf >>>= e & 15;
      cnt -= e & 15;
      const sym = e >>> 4;
      if (sym < 16) {
        lengths[i++] = sym;
        continue;
      }
      let rep: number;
      let value = 0;
      if (sym === 16) {
        if (i === 0) throw new Error('invalid DEFLATE data (repeat with no length)');
        value = lengths[i - 1];
        rep = 3 + (buf & 3);
        buf >>>= 2;
        cnt -= 2;
      } else if (sym === 17) {
        rep = 3 + (buf & 7);
        buf >>>= 3;
        cnt -= 3;
      } else {
        rep = 11 + (buf & 127);
        buf >>>= 7;
        cnt -= 7;
      }
      if (i + rep > total) throw new Error('invalid DEFLATE data (too many lengths)');
      for (const end = i + rep; i < end; i++) lengths[i] = value;
    }
    this.buf = buf;
    this.cnt = cnt;
    this.pos = pos;
    if (lengths[256] === 0) throw new Error('invalid DEFLATE data (no end-of-block code)');
    this.lit.build(lengths, nlen, 0);
    this.dist.build(lengths, ndist, nlen);
  }
}
