/**
 * Faster paths through hyparquet for the readers' Parquet files (issue 26's
 * browser speed), each giving what `parquetReadObjects` gives:
 *
 * - `PARQUET_PARSERS`: hyparquet decodes every string value with a
 *   `TextDecoder.decode` call of its own (about 0.15 µs each in Chromium, and a
 *   harness file is millions of short strings). `pageText` decodes a page's
 *   buffer once when it is all ASCII and slices each value out of that text;
 *   other values of up to 32 bytes that are ASCII are made with
 *   `String.fromCharCode`, the rest still go through `TextDecoder`: the text is
 *   the same either way.
 * - `readStructColumn`: a top-level struct column whose subtree has no
 *   repetition (struct of structs of string leaves, as the harness's
 *   `arguments`: `gen_args_k: {arg_0, arg_1}`) read leaf by leaf from the
 *   pages' definition levels, without hyparquet's nested assembly (which wraps
 *   every optional level of every value in a one-element array, then unwraps
 *   it: most of a harness file's decoding time and garbage).
 *
 * The page decoding itself (headers, decompression, levels, encodings,
 * dictionaries) is hyparquet's own, through its exported modules.
 */
import type { DecodedArray, FileMetaData, ParquetParsers, SchemaTree } from 'hyparquet';
import { parquetSchema } from 'hyparquet';
import { parquetHeader } from 'hyparquet/src/column.js';
import { decompressPage, readDataPage, readDataPageV2 } from 'hyparquet/src/datapage.js';
import { readPlain } from 'hyparquet/src/plain.js';

const decoder = new TextDecoder();

/** What hyparquet's page readers take about a column (its `ColumnDecoder`). */
type ColumnDecoder = Parameters<typeof readDataPageV2>[2];

/** UTF-8 text of `bytes`, as `TextDecoder.decode` gives it. */
export function utf8Text(bytes: Uint8Array): string {
  const n = bytes.length;
  if (n <= 32) {
    let any = 0;
    for (let i = 0; i < n; i++) any |= bytes[i];
    if (any < 0x80) return String.fromCharCode.apply(null, bytes as unknown as number[]);
  }
  return decoder.decode(bytes);
}

/**
 * The buffer the last value sat in, and its bytes as characters one to one
 * (windows-1252 decodes every byte to one character, ASCII bytes to
 * themselves), or null when the buffer is too large to decode whole.
 */
let pageBuffer: ArrayBufferLike | null = null;
let pageChars: string | null = null;
const singleByte = new TextDecoder('windows-1252');
/** Buffers up to this size are decoded whole (a page, a dictionary); larger ones value by value. */
const PAGE_TEXT_MAX = 4 << 20;
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * UTF-8 text of a value that is a view into a page's buffer, as `TextDecoder`
 * gives it: the page's buffer is decoded once a byte a character, and a value
 * whose characters there are all ASCII is that slice (ASCII is the same in
 * UTF-8); any other value is decoded on its own. A page of thousands of values
 * costs one decode and a slice each, not one decoder call each.
 */
export function pageText(bytes: Uint8Array): string {
  const buf = bytes.buffer;
  if (buf !== pageBuffer) {
    pageBuffer = buf;
    pageChars = buf.byteLength <= PAGE_TEXT_MAX ? singleByte.decode(new Uint8Array(buf)) : null;
  }
  if (pageChars !== null) {
    const s = pageChars.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
    if (!NON_ASCII.test(s)) return s;
  }
  return utf8Text(bytes);
}

/** hyparquet's string and JSON parsers through `pageText` (other parsers: its defaults). */
export const PARQUET_PARSERS: Partial<ParquetParsers> = {
  stringFromBytes: (bytes: Uint8Array) => bytes && pageText(bytes),
  jsonFromBytes: (bytes: Uint8Array) => bytes && JSON.parse(pageText(bytes)),
};

/** One leaf column of a row group: definition levels (null: all at the maximum) and raw values. */
interface LeafChunk {
  def: number[] | null;
  values: DecodedArray;
}

/** Reads one leaf column chunk's pages: levels and values, dictionary resolved, not converted. */
function readLeafChunk(buf: ArrayBuffer, decoder: ColumnDecoder, start: number, end: number) {
  const reader = { view: new DataView(buf, start, end - start), offset: 0 };
  let dictionary: DecodedArray | undefined;
  const chunks: LeafChunk[] = [];
  while (reader.offset < reader.view.byteLength - 1) {
    const header = parquetHeader(reader);
    const bytes = new Uint8Array(buf, start + reader.offset, header.compressed_page_size);
    reader.offset += header.compressed_page_size;
    const size = Number(header.uncompressed_page_size);
    if (header.type === 'DICTIONARY_PAGE') {
      const page = decompressPage(bytes, size, decoder.codec, decoder.compressors);
      const view = new DataView(page.buffer, page.byteOffset, page.byteLength);
      const count = header.dictionary_page_header!.num_values;
      dictionary = readPlain({ view, offset: 0 }, decoder.type, count, decoder.element.type_length);
      continue;
    }
    let page;
    let encoding;
    if (header.type === 'DATA_PAGE') {
      const daph = header.data_page_header!;
      const raw = decompressPage(bytes, size, decoder.codec, decoder.compressors);
      page = readDataPage(raw, daph, decoder);
      encoding = daph.encoding;
    } else if (header.type === 'DATA_PAGE_V2') {
      page = readDataPageV2(bytes, header, decoder);
      encoding = header.data_page_header_v2!.encoding;
    } else throw new Error(`parquet unsupported page type: ${header.type}`);
    let values = page.dataPage;
    if (dictionary && encoding.endsWith('_DICTIONARY')) {
      const out = new Array<unknown>(values.length);
      for (let i = 0; i < values.length; i++) out[i] = dictionary[values[i] as number];
      values = out as DecodedArray;
    }
    const def = page.definitionLevels;
    chunks.push({ def: def && def.length > 0 ? def : null, values });
  }
  return chunks;
}

/** A leaf's values per row: `null` below its maximum definition level, else the raw value. */
function leafRows(
  buf: ArrayBuffer,
  metadata: FileMetaData,
  path: string[],
  decoder: Omit<ColumnDecoder, 'codec' | 'type' | 'element'> & { element: SchemaTree['element'] },
): { def: Uint8Array; values: unknown[] } {
  const key = path.join('\u0000');
  const defs: number[] = [];
  const values: unknown[] = [];
  const maxDef = maxDefinition(decoder.schemaPath);
  for (const group of metadata.row_groups) {
    const chunk = group.columns.find((c) => c.meta_data?.path_in_schema.join('\u0000') === key);
    const meta = chunk?.meta_data;
    if (!meta) throw new Error(`parquet column chunk not found: ${path.join('.')}`);
    const start = Number(meta.dictionary_page_offset || meta.data_page_offset);
    const end = start + Number(meta.total_compressed_size);
    const full = { ...decoder, type: meta.type, codec: meta.codec } as ColumnDecoder;
    for (const c of readLeafChunk(buf, full, start, end)) {
      let v = 0;
      const n = c.def ? c.def.length : c.values.length;
      for (let i = 0; i < n; i++) {
        const d = c.def ? c.def[i] : maxDef;
        defs.push(d);
        values.push(d === maxDef ? c.values[v++] : null);
      }
    }
  }
  return { def: Uint8Array.from(defs), values };
}

function maxDefinition(schemaPath: SchemaTree[]): number {
  let n = 0;
  for (const s of schemaPath.slice(1)) if (s.element.repetition_type !== 'REQUIRED') n++;
  return n;
}

/** True when `node`'s subtree is structs over UTF-8 (or unannotated) BYTE_ARRAY leaves, nothing repeated. */
export function isFlatStringStruct(node: SchemaTree): boolean {
  const e = node.element;
  if (e.repetition_type === 'REPEATED') return false;
  if (node.children.length === 0)
    return (
      e.type === 'BYTE_ARRAY' &&
      (e.converted_type === undefined || e.converted_type === 'UTF8') &&
      (e.logical_type === undefined || e.logical_type.type === 'STRING')
    );
  return e.converted_type === undefined && node.children.every(isFlatStringStruct);
}

/** A subtree's values by row, and the definition levels of its first leaf. */
interface Built {
  get: (r: number) => unknown;
  def: Uint8Array;
}

/**
 * The values of top-level struct column `name` (see `isFlatStringStruct`), one
 * per row, as `parquetReadObjects` gives them: an object per struct (children
 * in schema order), null for a null struct or leaf.
 */
export function readStructColumn(
  buf: ArrayBuffer,
  metadata: FileMetaData,
  name: string,
): unknown[] {
  const root = parquetSchema(metadata);
  const top = root.children.find((c) => c.element.name === name);
  if (!top || top.children.length === 0 || !isFlatStringStruct(top))
    throw new Error(`parquet column ${name} is not a struct of strings`);
  const rows = Number(metadata.num_rows);
  const build = (node: SchemaTree, trail: SchemaTree[]): Built => {
    const schemaPath = [...trail, node];
    const depth = maxDefinition(schemaPath);
    if (node.children.length === 0) {
      const leaf = leafRows(buf, metadata, node.path, {
        pathInSchema: node.path,
        schemaPath,
        element: node.element,
        parsers: PARQUET_PARSERS as ParquetParsers,
      });
      if (leaf.def.length !== rows) throw new Error(`parquet column ${node.path.join('.')}: rows`);
      // Decoded a leaf at a time, in page order (pageText decodes each page once).
      const texts = leaf.values.map((b) => (b == null ? null : pageText(b as Uint8Array)));
      return { def: leaf.def, get: (r) => texts[r] };
    }
    const children = node.children.map((c) => ({ name: c.element.name, ...build(c, schemaPath) }));
    const def = children[0].def;
    return {
      def,
      get: (r) => {
        if (def[r] < depth) return null;
        const o: Record<string, unknown> = {};
        for (const c of children) o[c.name] = c.get(r);
        return o;
      },
    };
  };
  const { get } = build(top, [root]);
  const out = new Array<unknown>(rows);
  for (let r = 0; r < rows; r++) out[r] = get(r);
  return out;
}
