/** Section 1: the data, from the load report (datasetSummary, the sources, warnings and skipped files). */
import { datasetSummary, type DatasetSummary } from '../../core/data/summary';
import type { Dataset, SourceInfo } from '../../core/data/types';
import { CAPS, datasetFileNamer } from '../caps';
import { count, fmt, int, numCell, pct, section, table, textCell } from '../html';

function producerText(s: SourceInfo): string {
  const c = s.producerCheck;
  if (!c) return 'none in this format';
  const ties = c.ties ? `, ${int(c.ties)} ties` : '';
  return `${c.producer} ${c.metric}: ${int(c.agree)} of ${int(c.total)} agree${ties}`;
}

/** a before b by name (a fixed order, whatever order the files were loaded in). */
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function filesTable(ds: Dataset, name: (f: string) => string): string {
  const sources = [...ds.sources].sort((a, b) => byName(name(a.file), name(b.file)));
  const rows = sources.map((s) => [
    textCell(name(s.file)),
    textCell(s.format),
    numCell(int(s.rows)),
    textCell(s.valueKind ? `${s.valueKind} (${s.valueKindReason ?? ''})` : '—'),
    textCell(producerText(s)),
  ]);
  return table(
    'Files read',
    ['file', 'format', 'rows', 'values read as', 'producer-score key check'],
    rows,
    {
      cap: CAPS.files,
    },
  );
}

function shapeTable(s: DatasetSummary): string {
  const bench = s.benchmarks.map((b) => [textCell(b.name || '(none)'), numCell(int(b.items))]);
  const opts = s.optionCountHistogram.map((h) => [
    numCell(String(h.nOptions)),
    numCell(int(h.items)),
  ]);
  return (
    table('Items per benchmark', ['benchmark', 'items'], bench) +
    table('Items per option count', ['options', 'items'], opts)
  );
}

function issuesList(ds: Dataset, name: (f: string) => string): string {
  const skipped = [...(ds.skipped ?? [])]
    .sort((a, b) => byName(name(a.file), name(b.file)) || (a.line ?? 0) - (b.line ?? 0))
    .map((f) => [
      textCell(name(f.file)),
      textCell(f.line === undefined ? '' : String(f.line)),
      textCell(f.reason),
    ]);
  const warnings = [...ds.warnings]
    .sort(
      (a, b) =>
        byName(name(a.file), name(b.file)) ||
        (a.line ?? 0) - (b.line ?? 0) ||
        byName(a.code, b.code) ||
        byName(a.message, b.message),
    )
    .map((w) => [
      textCell(name(w.file)),
      textCell(w.line === undefined ? '' : String(w.line)),
      textCell(w.code),
      numCell(w.count === undefined ? '' : int(w.count)),
      textCell(w.message),
    ]);
  return (
    (skipped.length
      ? table('Files left out, and why', ['file', 'line', 'reason'], skipped, { cap: CAPS.files })
      : '<p>No file was left out.</p>') +
    (warnings.length
      ? table(
          'Load warnings (values dropped, renormalised or ignored)',
          ['file', 'line', 'kind', 'count', 'what'],
          warnings,
          { cap: CAPS.warnings },
        )
      : '<p>The load raised no warning: nothing was dropped or renormalised beyond 1%.</p>')
  );
}

function reading(ds: Dataset, s: DatasetSummary): string {
  const benches = s.benchmarks.map((b) => `${b.name || '(none)'} (${int(b.items)})`).join(', ');
  const ks = s.optionCountHistogram.map((h) => h.nOptions);
  const kText =
    ks.length === 1 ? `${ks[0]} options each` : `${ks[0]} to ${ks[ks.length - 1]} options`;
  const leak = Number.isFinite(s.leakage.mean)
    ? `Probability mass outside the listed options (leakage) averages ${pct(s.leakage.mean, 2)} per cell, at most ${pct(s.leakage.max, 1)}, and exceeds 1% in ${count(s.leakage.above1pct, 'cell')}.`
    : 'Leakage cannot be known for these values (they are not probabilities).';
  const checks = ds.sources.filter((x) => x.producerCheck);
  const agree = checks.reduce((a, x) => a + x.producerCheck!.agree, 0);
  const total = checks.reduce((a, x) => a + x.producerCheck!.total, 0);
  const prod = checks.length
    ? ` The keys agree with the producer's own score on ${int(agree)} of ${int(total)} records (${pct(agree / total, 2)}).`
    : ' These files carry no producer score, so the keys were not checked against one.';
  const issues = `${count(ds.warnings.length, 'load warning')} and ${count(ds.skipped?.length ?? 0, 'skipped file')}.`;
  return `The data hold ${count(s.J, 'LLM')} answering ${count(s.I, 'item')} from ${count(s.benchmarks.length, 'benchmark')}: ${benches}; items have ${kText}. Of the ${int(s.J * s.I)} LLM–item cells, ${pct(s.missingShare, 1)} are missing (${int(s.cells)} observed). ${leak}${prod} The load gave ${issues}`;
}

export function dataSection(ds: Dataset): string {
  const s = datasetSummary(ds);
  const name = datasetFileNamer(ds);
  const body =
    filesTable(ds, name) +
    '\n<div class="pair">' +
    shapeTable(s) +
    '</div>\n' +
    `<p>Missing cells: ${int(s.J * s.I - s.cells)} of ${int(s.J * s.I)} (${pct(s.missingShare, 2)}). Leakage over ${int(s.leakage.cells)} cells where it is known: mean ${fmt(s.leakage.mean, 4)}, max ${fmt(s.leakage.max, 4)}.</p>\n` +
    issuesList(ds, name);
  return section('data', '1. The data', reading(ds, s), body);
}
