import { useId } from 'react';
import { fmtCount, fmtPercent, fmtSeconds } from '../format';
import type { LoadedData } from '../state';

/** What was loaded: sizes, option counts, benchmarks, gaps, leakage and warnings. */
export function SummaryPanel({ data }: { data: LoadedData }) {
  const { summary: s, dataset: ds } = data;
  const id = useId();
  const counts = s.optionCountHistogram;
  const maxCount = Math.max(1, ...counts.map((c) => c.items));
  const leak = s.leakage;
  // A skipped file's note is listed under "Skipped files", not again as a warning.
  const skipped = new Set(ds.skipped?.map((f) => `${f.file}\u0000${f.reason}`));
  // The key checks are listed once, under "Keys checked", not again as warnings (sessions
  // saved before the 'keycheck' code carry them as 'other').
  const isCheck = (w: (typeof ds.warnings)[number]) =>
    w.code === 'keycheck' || w.message.startsWith('keys agree with ');
  const warnings = ds.warnings.filter(
    (w) => !isCheck(w) && !skipped.has(`${w.file}\u0000${w.message}`),
  );
  // One line per checked file: its note (the harness's names acc and acc_norm both).
  const checkNotes = ds.warnings.filter(isCheck).map((w) => ({ file: w.file, note: w.message }));
  const checks =
    checkNotes.length > 0
      ? checkNotes
      : (s.producerChecks ?? []).map(({ file, check: c }) => ({
          file,
          note:
            `keys agree with ${c.producer}'s ${c.metric} on ${fmtCount(c.agree)} of ` +
            `${fmtCount(c.total)} records` +
            (c.ties > 0 ? `; ${fmtCount(c.ties)} more differ only by a tie` : ''),
        }));
  return (
    <section className="panel summary" aria-labelledby={`${id}-h`} data-testid="summary">
      <h2 id={`${id}-h`}>Loaded data</h2>
      <dl className="facts">
        <div>
          <dt>LLMs</dt>
          <dd data-testid="summary-J">{s.J}</dd>
        </div>
        <div>
          <dt>Items</dt>
          <dd data-testid="summary-I">{s.I}</dd>
        </div>
        <div>
          <dt>Missing cells</dt>
          <dd>{fmtPercent(s.missingShare)}</dd>
        </div>
        <div>
          <dt>Leakage (mean / max)</dt>
          <dd>
            {leak.cells > 0
              ? `${fmtPercent(leak.mean, 2)} / ${fmtPercent(leak.max, 2)}`
              : 'unknown'}
          </dd>
        </div>
        {leak.above1pct > 0 && (
          <div>
            <dt>Cells leaking over 1%</dt>
            <dd>{fmtCount(leak.above1pct)}</dd>
          </div>
        )}
      </dl>
      <h3>Options per item</h3>
      <ul className="hist" aria-label="Histogram of option counts">
        {counts.map(({ nOptions, items }) => (
          <li key={nOptions}>
            <span className="hist-label">{nOptions}</span>
            <span className="hist-bar" style={{ width: `${(items / maxCount) * 100}%` }} />
            <span className="hist-n">{items}</span>
          </li>
        ))}
      </ul>
      <h3>Benchmarks</h3>
      <ul className="plain">
        {s.benchmarks.map((b) => (
          <li key={b.name}>
            {b.name || '(none)'}: {b.items} items
          </li>
        ))}
      </ul>
      <details>
        <summary>
          Files ({data.files.length}), read in {fmtSeconds(data.seconds)}
        </summary>
        <ul className="plain small">
          {ds.sources.map((src) => (
            <li key={src.file}>
              {src.file}: {src.format}, {fmtCount(src.rows)} rows
              {src.valueKind ? `, ${src.valueKind} (${src.valueKindReason ?? ''})` : ''}
            </li>
          ))}
        </ul>
      </details>
      {checks.length > 0 && (
        <details data-testid="producer-checks">
          <summary>Keys checked against the producer's own score</summary>
          <ul className="plain small">
            {checks.map(({ file, note }) => (
              <li key={file}>
                {file}: {note}
              </li>
            ))}
          </ul>
        </details>
      )}
      {s.skipped && s.skipped.length > 0 && <SkippedFiles groups={s.skipped} />}
      {warnings.length > 0 && <WarningGroups warnings={warnings} />}
    </section>
  );
}

/** Files that gave nothing, grouped by reason: the reason, then its files. */
function SkippedFiles({ groups }: { groups: NonNullable<LoadedData['summary']['skipped']> }) {
  const n = groups.reduce((t, g) => t + g.files.length, 0);
  return (
    <div className="warnings" role="status" data-testid="skipped">
      <h3>Skipped files ({n}): not used; the strict option makes this an error</h3>
      <ul className="plain small">
        {groups.map((g) => (
          <li key={g.reason} data-testid="skipped-group">
            <span data-testid="skipped-reason">{g.reason}</span> ({g.files.length})
            <ul className="plain">
              {g.files.map((f) => (
                <li key={f.file} data-testid="skipped-file">
                  {f.file}
                  {f.line !== undefined ? `, line ${f.line}` : ''}
                  {f.reason !== g.reason ? `: ${f.reason}` : ''}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </div>
  );
}

type Warning = LoadedData['dataset']['warnings'][number];

/**
 * Warnings grouped by kind: one line per kind with how many files and cells it
 * covers and its first message; every warning is one click away.
 */
function WarningGroups({ warnings }: { warnings: Warning[] }) {
  const groups = new Map<string, Warning[]>();
  for (const w of warnings) groups.set(w.code, [...(groups.get(w.code) ?? []), w]);
  return (
    <div className="warnings" role="status" data-testid="warnings">
      <h3>Warnings</h3>
      <ul className="plain small">
        {[...groups].map(([code, ws]) => {
          const cells = ws.reduce((n, w) => n + (w.count ?? 1), 0);
          const files = new Set(ws.map((w) => w.file)).size;
          return (
            <li key={code} data-testid="warning-group" data-code={code}>
              <strong>{code}</strong> ×{fmtCount(cells)}
              {files > 1 ? ` in ${files} files` : ''}: {ws[0].message}
              {ws.length > 1 && (
                <details>
                  <summary>Show all {ws.length}</summary>
                  <ul className="plain">
                    {ws.map((w, n) => (
                      <li key={n}>
                        {w.file}
                        {w.line !== undefined ? `, line ${w.line}` : ''}: {w.message}
                        {w.count ? ` (${w.count}×)` : ''}
                      </li>
                    ))}
                  </ul>
                </details>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
