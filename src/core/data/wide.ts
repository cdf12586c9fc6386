/**
 * Wide CSV: one row per (model, item) with columns `model,item,key`, option columns
 * `A`..`J` (optionally `p_A` or `logp_A`), and optional `benchmark`, `n_options`.
 */
import { RowBlock } from './block.ts';
import type { DatasetBuilder } from './builder.ts';
import { columnsOf, csvParser, warnIgnoredColumns } from './csv.ts';
import type { CsvHeader, StreamOptions } from './csv.ts';
import { KindDetector } from './kind.ts';
import { checkDeclared, readLabel, readNumber, readOptionCount } from './values.ts';
import { DataError, OPTION_LABELS, type ValueKind, quoted } from './types.ts';

/** Options for wide and long parsers. */
export interface ValueOptions extends StreamOptions {
  /** Forces the value kind instead of reading it from column names or values. */
  valueKind?: ValueKind;
}

const EXPECTED = 'model,item,key[,benchmark][,n_options],A,B,... (or p_A.. / logp_A..)';
const OPTION_COL = /^(p_|logp_)?([A-J])$/;

interface Inferred {
  count: number;
  prefix: boolean;
  line: number;
}

/**
 * The option columns of a wide CSV header: per option label its column (−1
 * where absent), their shared prefix ('', 'p_' or 'logp_'; null with none) and
 * the unknown columns, which are ignored. Throws on mixed prefixes.
 */
function optionColumns(
  file: string,
  names: string[],
): { optCol: number[]; prefix: string | null; ignored: string[] } {
  const optCol: number[] = [];
  let prefix: string | null = null;
  const ignored: string[] = [];
  names.forEach((name, c) => {
    const m = OPTION_COL.exec(name);
    if (!m) {
      if (name !== '' && !['model', 'item', 'key', 'n_options', 'benchmark'].includes(name))
        ignored.push(name);
      return;
    }
    const p = m[1] ?? '';
    if (prefix !== null && p !== prefix)
      throw new DataError(
        `option column '${name}' mixes prefixes with '${prefix}${m[2]}'-style columns`,
        file,
        1,
        name,
        'one naming for all option columns (A, p_A or logp_A)',
      );
    prefix = p;
    optCol[OPTION_LABELS.indexOf(m[2] as 'A')] = c;
  });
  return { optCol: Array.from(optCol, (c) => c ?? -1), prefix, ignored };
}

/**
 * Creates an incremental parser for a wide CSV. `finish()` settles the value kind
 * and any option counts inferred from the data, then adds the file to `builder`.
 */
export function createWideParser(file: string, builder: DatasetBuilder, opts: ValueOptions = {}) {
  let col = { model: 0, item: 0, key: 0, n: -1, bench: -1 };
  let optCol: number[] = [];
  let names: string[] = [];
  let declared: { kind: ValueKind; reason: string } | null = null;
  let block = new RowBlock(file, 'wide', 2);
  let vals = new Float64Array(0);
  const detector = new KindDetector();
  const inferred = new Map<number, Inferred>();

  const onHeader = (h: CsvHeader) => {
    const need = { model: 'model', item: 'item', key: 'key' };
    col = columnsOf(file, h, EXPECTED, need, { n: 'n_options', bench: 'benchmark' });
    names = h.names;
    const options = optionColumns(file, h.names);
    const { prefix, ignored } = options;
    optCol = options.optCol;
    if (optCol.filter((c) => c >= 0).length < 2)
      throw new DataError('fewer than two option columns', file, 1, undefined, EXPECTED);
    warnIgnoredColumns(builder, file, ignored);
    if (opts.valueKind) declared = { kind: opts.valueKind, reason: 'override' };
    else if (prefix === 'p_') declared = { kind: 'prob', reason: 'column prefix p_' };
    else if (prefix === 'logp_') declared = { kind: 'logprob', reason: 'column prefix logp_' };
    block = new RowBlock(file, 'wide', optCol.length);
    const present = optCol.filter((c) => c >= 0);
    block.valueColumn = `${names[present[0]]}..${names[present[present.length - 1]]}`;
    vals = new Float64Array(optCol.length);
  };

  const onRow = (f: string[], line: number) => {
    const model = f[col.model].trim();
    const itemId = f[col.item].trim();
    if (model === '') throw new DataError('empty model name', file, line, 'model', 'a model name');
    if (itemId === '') throw new DataError('empty item id', file, line, 'item', 'an item id');
    const j = builder.llm(model);
    if (builder.skipItem(itemId)) return;
    const i = builder.item(itemId);
    const at = { file, line };
    if (col.n >= 0)
      builder.setN(i, readOptionCount(f[col.n], { file, line, column: 'n_options' }), at);
    if (col.bench >= 0) builder.setBenchmark(i, f[col.bench].trim(), at);
    const K = builder.itemN[i];
    builder.setKey(i, readLabel(f[col.key], K, { file, line, column: 'key' }), at);
    let sum = 0;
    let count = 0;
    let hi = -1;
    for (let k = 0; k < optCol.length; k++) {
      const c = optCol[k];
      const v = c < 0 ? NaN : readNumber(f[c], { file, line, column: names[c] });
      vals[k] = v;
      if (Number.isNaN(v)) continue;
      if (K > 0 && k >= K)
        throw new DataError(
          `value in column ${names[c]}, but the item has ${K} options`,
          file,
          line,
          names[c],
          `a blank cell beyond option ${OPTION_LABELS[K - 1]}`,
        );
      if (declared) checkDeclared(v, declared.kind, { file, line, column: names[c] });
      else detector.value(v, line, names[c]);
      sum += v;
      count++;
      hi = k;
    }
    if (count === 0)
      throw new DataError(
        'row has no option values',
        file,
        line,
        block.valueColumn,
        'option values',
      );
    if (!declared) detector.rowSum(sum, line);
    if (K === 0) {
      const inf = inferred.get(i);
      const prefix = hi + 1 === count;
      if (!inf) inferred.set(i, { count, prefix, line });
      else if (inf.count !== count || !prefix) inf.prefix = false;
    }
    block.add(j, i, line, vals);
  };

  return csvParser(file, onHeader, onRow, opts, (rows) => {
    for (const [i, inf] of inferred) {
      if (builder.itemN[i] !== 0) continue;
      const K = inf.prefix ? inf.count : optCol.length;
      if (K < 2)
        throw new DataError(
          `cannot infer n_options of item ${quoted(builder.itemIds[i])}: only one option has values`,
          file,
          inf.line,
          'n_options',
          'an n_options column',
        );
      builder.setN(i, K, { file, line: inf.line });
      const key = builder.itemKey[i];
      if (key >= K)
        readLabel(OPTION_LABELS[key], K, { file, line: builder.keyWhere(i).line, column: 'key' });
      builder.tally(file, 'other', 'inferred-n', inf.line, (n) => {
        return `no n_options column: option counts of ${n} items were inferred from their values`;
      });
    }
    const choice = declared ?? detector.decide(file);
    block.setKind(choice.kind, choice.reason);
    builder.addBlock(block, {
      file,
      format: 'wide',
      valueKind: choice.kind,
      valueKindReason: choice.reason,
      rows: rows,
    });
  });
}
