/**
 * Long CSV: one row per (model, item, option), `model,item,option,prob` or
 * `...,logprob` (or `...,weight`). Keys and option counts come from an items file,
 * which must be added to the builder first.
 */
import { OptionRowBlock } from './block.ts';
import type { DatasetBuilder } from './builder.ts';
import { columnsOf, csvParser, requireColumn, warnIgnoredColumns, type CsvHeader } from './csv.ts';
import type { ValueOptions } from './wide.ts';
import { checkDeclared, readLabel, readNumber } from './values.ts';
import { DataError, type ValueKind, quoted } from './types.ts';

const EXPECTED = 'model,item,option,prob (or logprob / weight)';
const VALUE_COLUMNS: ValueKind[] = ['prob', 'logprob', 'weight'];

/**
 * Creates an incremental parser for a long CSV. Throws (on the first chunk) when
 * no items file has been added to `builder`.
 */
export function createLongParser(file: string, builder: DatasetBuilder, opts: ValueOptions = {}) {
  let col = { model: 0, item: 0, option: 0, value: 0 };
  let valueName = '';
  let kind: ValueKind = 'prob';
  let reason = '';
  const block = new OptionRowBlock(file, 'long');

  const onHeader = (h: CsvHeader) => {
    if (builder.items.size === 0)
      throw new DataError(
        'a long-format file needs an items file with each item key and n_options',
        file,
        undefined,
        undefined,
        'an items CSV (item,key,n_options,...) loaded with it',
      );
    const found = VALUE_COLUMNS.filter((v) => h.index.has(v));
    if (found.length === 0) requireColumn(file, h, 'prob', EXPECTED);
    if (found.length > 1)
      throw new DataError(
        `more than one value column (${found.join(', ')})`,
        file,
        1,
        found[1],
        'exactly one of prob, logprob, weight',
      );
    valueName = found[0];
    const need = { model: 'model', item: 'item', option: 'option' };
    col = { ...columnsOf(file, h, EXPECTED, need, {}), value: h.index.get(valueName)! };
    kind = opts.valueKind ?? (valueName as ValueKind);
    reason = opts.valueKind ? 'override' : `column name '${valueName}'`;
    block.valueColumn = valueName;
    const extra = h.names.filter((n) => n !== '' && ![...Object.keys(col), valueName].includes(n));
    warnIgnoredColumns(builder, file, extra);
  };

  const onRow = (f: string[], line: number) => {
    const model = f[col.model].trim();
    const itemId = f[col.item].trim();
    if (model === '') throw new DataError('empty model name', file, line, 'model', 'a model name');
    const j = builder.llm(model);
    if (builder.skipItem(itemId)) return;
    if (!builder.items.has(itemId))
      throw new DataError(
        `item ${quoted(itemId)} is not in the items file`,
        file,
        line,
        'item',
        'an item listed in the items file',
      );
    const i = builder.item(itemId);
    const k = readLabel(
      f[col.option],
      builder.itemN[i],
      { file, line, column: 'option' },
      'option',
    );
    const at = { file, line, column: valueName };
    const v = readNumber(f[col.value], at);
    if (!Number.isNaN(v)) checkDeclared(v, kind, at);
    block.add(j, i, line, k, v);
  };

  return csvParser(file, onHeader, onRow, opts, (rows) => {
    block.setKind(kind, reason);
    builder.addBlock(block, {
      file,
      format: 'long',
      valueKind: kind,
      valueKindReason: reason,
      rows: rows,
    });
  });
}
