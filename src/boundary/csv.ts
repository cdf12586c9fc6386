// OWASP's list of characters that make spreadsheets treat a cell as a formula.
const FORMULA_START = /^[=+\-@\t\r]/;

/** Text of one cell, before quoting. Numbers stay numeric; strings are neutralised. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  const text =
    typeof value === 'string'
      ? value
      : value instanceof Date
        ? value.toISOString()
        : JSON.stringify(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

function quote(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * RFC 4180 CSV (CRLF line ends, quotes doubled) with formula-injection
 * neutralisation: string cells starting with `= + - @`, tab or CR get a
 * leading `'`. Numbers are written as numbers (−0.53 stays −0.53); non-finite
 * numbers, null and undefined become empty cells. Columns default to the
 * union of row keys in first-seen order.
 */
export function toCsv<T extends object>(
  rows: readonly T[],
  columns?: readonly (keyof T & string)[],
): string {
  const cols: readonly string[] = columns ?? [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const lines = [cols.map((c) => quote(cellText(c))).join(',')];
  for (const row of rows) {
    const cells = row as Record<string, unknown>;
    lines.push(cols.map((c) => quote(cellText(cells[c]))).join(','));
  }
  return lines.join('\r\n') + '\r\n';
}
