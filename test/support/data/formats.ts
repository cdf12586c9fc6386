/**
 * Serialising a test `Spec` to every input format (not used by the app): wide CSV
 * (plain, p_ and logp_ columns), long CSV (prob, logprob, weight) with an items
 * CSV, and lm-evaluation-harness sample logs, one folder per model.
 */
import Papa from 'papaparse';
import { eachCell, label, type Spec } from './spec.ts';

/** One input file, as `loadDataset` takes it. */
export interface TextFile {
  name: string;
  text: string;
}

type Kind = 'prob' | 'weight' | 'logprob';

/** A raw probability written as the given kind ('' for a value the kind cannot hold). */
function value(v: number, kind: Kind, scale: number): string {
  if (Number.isNaN(v)) return '';
  if (kind === 'weight') return String(v * scale);
  if (kind === 'logprob') return v > 0 ? String(Math.log(v)) : '';
  return String(v);
}

const csv = (rows: (string | number)[][], crlf: boolean) => {
  const nl = crlf ? '\r\n' : '\n';
  return Papa.unparse(rows, { newline: nl }) + nl;
};

/** A deterministic shuffle (LCG), so a failing case replays exactly. */
export function shuffle<T>(xs: T[], seed: number): T[] {
  const out = xs.slice();
  let s = seed >>> 0 || 1;
  for (let n = out.length - 1; n > 0; n--) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const m = s % (n + 1);
    [out[n], out[m]] = [out[m], out[n]];
  }
  return out;
}

/** Options of the items CSV. */
export interface ItemsVariant {
  texts: boolean;
  bench: boolean;
  crlf?: boolean;
}

/** Items CSV listing every item of the spec (also those without data). */
export function itemsCsv(s: Spec, v: ItemsVariant): TextFile {
  const head = ['item', 'key', 'n_options'];
  if (v.bench) head.push('benchmark');
  if (v.texts) head.push('question', ...label10().map((l) => `option_${l}`));
  const rows: (string | number)[][] = [head];
  for (const it of s.items) {
    const row: (string | number)[] = [it.id, label(it.key), it.K];
    if (v.bench) row.push(it.bench);
    if (v.texts)
      row.push(it.text.question, ...label10().map((_, k) => (k < it.K ? it.text.options[k] : '')));
    rows.push(row);
  }
  return { name: 'items.csv', text: csv(rows, v.crlf ?? false) };
}

const label10 = () => Array.from({ length: 10 }, (_, k) => label(k));

/** Options of a wide CSV. */
export interface WideVariant {
  prefix: '' | 'p_' | 'logp_';
  kind: Kind;
  /** Write n_options; without it an items file supplies the counts. */
  nOptions: boolean;
  bench: boolean;
  /** Option columns A..J instead of A..Kmax. */
  allTen: boolean;
  /** An extra column the loader must ignore. */
  extra: boolean;
  scale: number;
  crlf: boolean;
}

/** Wide CSV (plus an items file when it has no n_options column). */
export function wideFiles(s: Spec, v: WideVariant): TextFile[] {
  const Kmax = v.allTen ? 10 : Math.max(...s.items.map((it) => it.K));
  const labels = label10().slice(0, Kmax);
  const head = ['model', 'item', 'key'];
  if (v.nOptions) head.push('n_options');
  if (v.bench) head.push('benchmark');
  if (v.extra) head.push('note');
  head.push(...labels.map((l) => v.prefix + l));
  const rows: (string | number)[][] = [head];
  eachCell(s, (j, i, c) => {
    const it = s.items[i];
    const row: (string | number)[] = [s.models[j], it.id, label(it.key)];
    if (v.nOptions) row.push(it.K);
    if (v.bench) row.push(it.bench);
    if (v.extra) row.push('ignored, "really"');
    row.push(...labels.map((_, k) => (k < it.K ? value(c[k], v.kind, v.scale) : '')));
    rows.push(row);
  });
  const files = [{ name: 'wide.csv', text: csv(rows, v.crlf) }];
  if (!v.nOptions) files.push(itemsCsv(s, { texts: false, bench: false }));
  return files;
}

/** Options of a long CSV. */
export interface LongVariant {
  kind: Kind;
  /** Shuffle the rows with this seed (0: model-major order). */
  shuffle: number;
  texts: boolean;
  scale: number;
  crlf: boolean;
}

/** Long CSV and its items file. */
export function longFiles(s: Spec, v: LongVariant): TextFile[] {
  let rows: (string | number)[][] = [];
  eachCell(s, (j, i, c) => {
    c.forEach((x, k) => {
      const t = value(x, v.kind, v.scale);
      if (t !== '') rows.push([s.models[j], s.items[i].id, label(k), t]);
    });
  });
  if (v.shuffle) rows = shuffle(rows, v.shuffle);
  rows.unshift(['model', 'item', 'option', v.kind]);
  return [
    { name: 'long.csv', text: csv(rows, v.crlf) },
    itemsCsv(s, { texts: v.texts, bench: true, crlf: v.crlf }),
  ];
}

/** Options of harness sample logs. */
export interface HarnessVariant {
  /** Log-likelihoods as ["-1.2", "False"] strings, [-1.2, false] numbers, or nested once more. */
  resps: 'strings' | 'numbers' | 'nested';
  /** Only `resps` (nested, as old harness versions write), no `filtered_resps`. */
  respsOnly: boolean;
  target: 'number' | 'string' | 'label';
  /** Choice texts in `arguments` (new or old style), `doc.choices`, or nowhere. */
  args: 'new' | 'old' | 'choices' | 'none';
  crlf: boolean;
}

/** Log-likelihood for a raw probability; zero and missing options get -1000 (exp = 0). */
const ll = (v: number) => (v > 0 ? Math.log(v) : -1000);

function harnessLine(s: Spec, i: number, c: number[], v: HarnessVariant): string {
  const it = s.items[i];
  const pairs = c.map((x) => (v.resps === 'numbers' ? [ll(x), false] : [String(ll(x)), 'False']));
  const filtered = v.resps === 'nested' ? pairs.map((p) => [p]) : pairs;
  const rec: Record<string, unknown> = { doc_id: it.doc };
  const texts = it.text.options.map((t) => t || `choice ${t}`);
  rec.doc = {
    id: it.id,
    question: it.text.question,
    ...(v.args === 'choices' ? { choices: texts } : {}),
  };
  rec.target =
    v.target === 'number' ? it.key : v.target === 'string' ? String(it.key) : label(it.key);
  if (v.args === 'new')
    rec.arguments = Object.fromEntries(
      texts.map((t, k) => [`gen_args_${k}`, { arg_0: 'Q:', arg_1: ` ${t}` }]),
    );
  if (v.args === 'old') rec.arguments = texts.map((t) => ['Q:', ` ${t}`]);
  rec.resps = pairs.map((p) => [p]);
  if (!v.respsOnly) rec.filtered_resps = filtered;
  return JSON.stringify(rec);
}

/** One `<model>/samples_<task>_<date>.jsonl` per model and task with data. */
export function harnessFiles(s: Spec, v: HarnessVariant): TextFile[] {
  const files = new Map<string, string[]>();
  eachCell(s, (j, i, c) => {
    const name = `${s.models[j]}/samples_${s.items[i].task}_2024-06-01T10-20-30.123456.jsonl`;
    if (!files.has(name)) files.set(name, []);
    files.get(name)!.push(harnessLine(s, i, c, v));
  });
  const nl = v.crlf ? '\r\n' : '\n';
  return [...files].map(([name, lines]) => ({ name, text: lines.join(nl) + nl }));
}
