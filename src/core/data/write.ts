/**
 * Serialising a Dataset back to CSV: wide, long and items files that the loaders
 * read back to the same Dataset (probabilities are written with 9 significant
 * digits, enough to restore every float32 exactly).
 */
import Papa from 'papaparse';
import { OPTION_LABELS, type Dataset } from './types.ts';

/** Shortest decimal that reads back as the same float32. */
const fmt = (v: number) => String(Number(v.toPrecision(9)));
const unparse = (rows: (string | number)[][]) => Papa.unparse(rows, { newline: '\n' }) + '\n';

function eachCell(ds: Dataset, fn: (j: number, i: number, off: number) => void): void {
  for (let j = 0; j < ds.J; j++)
    for (let i = 0; i < ds.I; i++)
      if (ds.observed[j * ds.I + i]) fn(j, i, (j * ds.I + i) * ds.Kmax);
}

/** Wide CSV `model,item,benchmark,key,n_options,A..`: one row per observed cell. */
export function writeWideCsv(ds: Dataset): string {
  const labels = OPTION_LABELS.slice(0, ds.Kmax);
  const rows: (string | number)[][] = [
    ['model', 'item', 'benchmark', 'key', 'n_options', ...labels],
  ];
  eachCell(ds, (j, i, off) => {
    const K = ds.nOptions[i];
    const vals = labels.map((_, k) => (k < K ? fmt(ds.obs[off + k]) : ''));
    rows.push([
      ds.llmIds[j],
      ds.itemIds[i],
      ds.benchmarks[i],
      OPTION_LABELS[ds.key[i]],
      K,
      ...vals,
    ]);
  });
  return unparse(rows);
}

/** Long CSV `model,item,option,prob`: one row per option of each observed cell. */
export function writeLongCsv(ds: Dataset): string {
  const rows: (string | number)[][] = [['model', 'item', 'option', 'prob']];
  eachCell(ds, (j, i, off) => {
    for (let k = 0; k < ds.nOptions[i]; k++)
      rows.push([ds.llmIds[j], ds.itemIds[i], OPTION_LABELS[k], fmt(ds.obs[off + k])]);
  });
  return unparse(rows);
}

/** Items CSV `item,benchmark,key,n_options[,question,option_A..]`, texts when the Dataset has them. */
export function writeItemsCsv(ds: Dataset): string {
  const texts = ds.itemTexts;
  const optCols = OPTION_LABELS.slice(0, ds.Kmax).map((l) => `option_${l}`);
  const head = [
    'item',
    'benchmark',
    'key',
    'n_options',
    ...(texts ? ['question', ...optCols] : []),
  ];
  const rows: (string | number)[][] = [head];
  for (let i = 0; i < ds.I; i++) {
    const row: (string | number)[] = [
      ds.itemIds[i],
      ds.benchmarks[i],
      OPTION_LABELS[ds.key[i]],
      ds.nOptions[i],
    ];
    if (texts) {
      const t = texts[i];
      row.push(
        t?.question ?? '',
        ...optCols.map((_, k) => (k < ds.nOptions[i] ? (t?.options[k] ?? '') : '')),
      );
    }
    rows.push(row);
  }
  return unparse(rows);
}
