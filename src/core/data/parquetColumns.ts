/**
 * Top-level Parquet columns read into row values without hyparquet's nested
 * assembly (which wraps every optional level of every value in a one-element
 * array and unwraps it again, and builds structs column by column before
 * turning them into rows): each leaf's pages are decoded by hyparquet's own
 * page readers and converters, then the rows are built in one pass over the
 * definition and repetition levels (Dremel), giving what `parquetReadObjects`
 * gives. The shapes read are scalar leaves, structs that are not inside a
 * list, and three-level LISTs of scalars or of such lists (the harness's
 * `doc`, `arguments`, `filtered_resps`, `metrics`); `fastColumn` says null for
 * any other column (maps, lists of structs, two-level lists), which the caller
 * reads with hyparquet.
 */
import type { DecodedArray, FileMetaData, ParquetParsers, SchemaTree } from 'hyparquet';
import { parquetSchema } from 'hyparquet';
import { parquetHeader } from 'hyparquet/src/column.js';
import { convert, convertWithDictionary, DEFAULT_PARSERS } from 'hyparquet/src/convert.js';
import { decompressPage, readDataPage, readDataPageV2 } from 'hyparquet/src/datapage.js';
import { readPlain } from 'hyparquet/src/plain.js';
import { PARQUET_PARSERS } from './parquetLeaves.ts';

/** What hyparquet's page readers take about a column (its `ColumnDecoder`). */
type ColumnDecoder = Parameters<typeof readDataPageV2>[2];

const PARSERS = { ...DEFAULT_PARSERS, ...PARQUET_PARSERS } as ParquetParsers;

/** One leaf over all row groups: levels (null: none stored), converted values, a cursor. */
interface Leaf {
  /** Level entries. */
  n: number;
  def: number[] | null;
  rep: number[] | null;
  values: unknown[];
  maxDef: number;
  /** Next level entry and next value. */
  p: number;
  v: number;
}

const notRequired = (s: SchemaTree) => s.element.repetition_type !== 'REQUIRED';

/** Definition level of `path`'s last node: its non-required nodes (the root excluded). */
const defLevel = (path: SchemaTree[]) => path.slice(1).filter(notRequired).length;
const repLevel = (path: SchemaTree[]) =>
  path.slice(1).filter((s) => s.element.repetition_type === 'REPEATED').length;

/** A three-level LIST: an annotated group, its one repeated group, that group's one element. */
function listElement(node: SchemaTree): SchemaTree | null {
  if (node.element.converted_type !== 'LIST' || node.children.length !== 1) return null;
  const rep = node.children[0];
  if (rep.element.repetition_type !== 'REPEATED' || rep.children.length !== 1) return null;
  return rep.children[0];
}

/** True for the shapes this module reads (see the file's comment). */
function readable(node: SchemaTree, inList: boolean): boolean {
  const e = node.element;
  if (e.repetition_type === 'REPEATED') return false;
  if (node.children.length === 0) return true;
  const el = listElement(node);
  if (el) return el.children.length === 0 || readable(el, true);
  if (inList || e.converted_type !== undefined || e.logical_type !== undefined) return false;
  return node.children.every((c) => readable(c, false));
}

/** Decodes one leaf column over every row group, as hyparquet's `readColumn` does its pages. */
function readLeaf(buf: ArrayBuffer, metadata: FileMetaData, schemaPath: SchemaTree[]): Leaf {
  const node = schemaPath[schemaPath.length - 1];
  const key = node.path.join('\u0000');
  const maxDef = defLevel(schemaPath);
  const defs: number[] = [];
  const reps: number[] = [];
  const values: unknown[] = [];
  let anyDef = false;
  let anyRep = false;
  for (const group of metadata.row_groups) {
    const meta = group.columns.find(
      (c) => c.meta_data?.path_in_schema.join('\u0000') === key,
    )?.meta_data;
    if (!meta) throw new Error(`parquet column chunk not found: ${node.path.join('.')}`);
    const decoder: ColumnDecoder = {
      pathInSchema: node.path,
      element: node.element,
      schemaPath,
      type: meta.type,
      codec: meta.codec,
      parsers: PARSERS,
    };
    const start = Number(meta.dictionary_page_offset || meta.data_page_offset);
    const reader = {
      view: new DataView(buf, start, Number(meta.total_compressed_size)),
      offset: 0,
    };
    let dictionary: DecodedArray | undefined;
    while (reader.offset < reader.view.byteLength - 1) {
      const header = parquetHeader(reader);
      const bytes = new Uint8Array(buf, start + reader.offset, header.compressed_page_size);
      reader.offset += header.compressed_page_size;
      const size = Number(header.uncompressed_page_size);
      if (header.type === 'DICTIONARY_PAGE') {
        const page = decompressPage(bytes, size, meta.codec, undefined);
        const view = new DataView(page.buffer, page.byteOffset, page.byteLength);
        const count = header.dictionary_page_header!.num_values;
        dictionary = convert(
          readPlain({ view, offset: 0 }, meta.type, count, node.element.type_length),
          decoder,
        );
        continue;
      }
      let page;
      let encoding;
      if (header.type === 'DATA_PAGE') {
        const daph = header.data_page_header!;
        page = readDataPage(decompressPage(bytes, size, meta.codec, undefined), daph, decoder);
        encoding = daph.encoding;
      } else if (header.type === 'DATA_PAGE_V2') {
        page = readDataPageV2(bytes, header, decoder);
        encoding = header.data_page_header_v2!.encoding;
      } else throw new Error(`parquet unsupported page type: ${header.type}`);
      const vals = convertWithDictionary(page.dataPage, dictionary, encoding, decoder);
      for (let i = 0; i < vals.length; i++) values.push(vals[i]);
      const n = Math.max(
        page.definitionLevels?.length ?? 0,
        page.repetitionLevels.length,
        vals.length,
      );
      const def = page.definitionLevels;
      if (def && def.length > 0) {
        anyDef = true;
        for (let i = 0; i < n; i++) defs.push(def[i]);
      } else for (let i = 0; i < n; i++) defs.push(maxDef);
      const rep = page.repetitionLevels;
      if (rep.length > 0) {
        anyRep = true;
        for (let i = 0; i < n; i++) reps.push(rep[i]);
      } else for (let i = 0; i < n; i++) reps.push(0);
    }
  }
  return {
    n: defs.length,
    def: anyDef ? defs : null,
    rep: anyRep ? reps : null,
    values,
    maxDef,
    p: 0,
    v: 0,
  };
}

/** Reads a node's value at its leaves' cursors, or steps past it (a null parent). */
interface Reader {
  read(): unknown;
  skip(): void;
  first: Leaf;
}

const defAt = (l: Leaf) => (l.def ? l.def[l.p] : l.maxDef);

function build(buf: ArrayBuffer, metadata: FileMetaData, path: SchemaTree[]): Reader {
  const node = path[path.length - 1];
  if (node.children.length === 0) {
    const leaf = readLeaf(buf, metadata, path);
    return {
      first: leaf,
      read() {
        const v = defAt(leaf) === leaf.maxDef ? leaf.values[leaf.v++] : null;
        leaf.p++;
        return v;
      },
      skip() {
        if (defAt(leaf) === leaf.maxDef) leaf.v++;
        leaf.p++;
      },
    };
  }
  const el = listElement(node);
  if (el) {
    const repNode = node.children[0];
    const inner = build(buf, metadata, [...path, repNode, el]);
    const leaf = inner.first;
    const nullBelow = defLevel(path);
    const emptyBelow = defLevel([...path, repNode]);
    const rep = repLevel([...path, repNode]);
    return {
      first: leaf,
      read() {
        const d = defAt(leaf);
        if (d < nullBelow && notRequired(node)) return (leaf.p++, null);
        if (d < emptyBelow) return (leaf.p++, []);
        const out: unknown[] = [];
        do out.push(inner.read());
        while (leaf.p < leaf.n && leaf.rep![leaf.p] >= rep);
        return out;
      },
      skip() {
        leaf.p++;
      },
    };
  }
  const children = node.children.map((c) => ({
    name: c.element.name,
    r: build(buf, metadata, [...path, c]),
  }));
  const depth = defLevel(path);
  const first = children[0].r.first;
  return {
    first,
    read() {
      if (notRequired(node) && defAt(first) < depth) {
        for (const c of children) c.r.skip();
        return null;
      }
      const o: Record<string, unknown> = {};
      for (const c of children) o[c.name] = c.r.read();
      return o;
    },
    skip() {
      for (const c of children) c.r.skip();
    },
  };
}

/**
 * The values of top-level column `name`, one per row, as `parquetReadObjects`
 * gives them; null when its shape is not one this module reads.
 */
export function fastColumn(
  buf: ArrayBuffer,
  metadata: FileMetaData,
  name: string,
): unknown[] | null {
  const root = parquetSchema(metadata);
  const top = root.children.find((c) => c.element.name === name);
  if (!top || !readable(top, false)) return null;
  const reader = build(buf, metadata, [root, top]);
  const rows = Number(metadata.num_rows);
  const out = new Array<unknown>(rows);
  for (let r = 0; r < rows; r++) out[r] = reader.read();
  return out;
}
