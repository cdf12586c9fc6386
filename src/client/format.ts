/** Small display formatters shared by the panels. */

export function fmtBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}

/**
 * An integer with comma thousands separators ("945,000"). Not toLocaleString:
 * its first call in a page loads the ICU locale data, a 25–60 ms main-thread
 * task that fell inside the load of a dropped file (issue 12).
 */
export function fmtCount(n: number): string {
  if (!Number.isFinite(n)) return '—';
  const s = String(Math.round(Math.abs(n))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return n < 0 && Math.round(n) !== 0 ? `-${s}` : s;
}

export function fmtSeconds(s: number): string {
  if (!Number.isFinite(s)) return '—';
  if (s < 1) return `${Math.round(s * 1000)} ms`;
  if (s < 90) return `${s.toFixed(1)} s`;
  return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

export function fmtPercent(x: number, digits = 1): string {
  if (!Number.isFinite(x)) return '—';
  const t = (x * 100).toFixed(digits);
  // A tiny negative (round-off in a leakage of 1 − Σp) must not print as "-0.00%".
  return `${/^-0\.?0*$/.test(t) ? t.slice(1) : t}%`;
}

/** Seconds left at the current rate, or NaN before there is a rate. */
export function eta(done: number, total: number, elapsedMs: number): number {
  if (!(done > 0) || !(total > done)) return done >= total && total > 0 ? 0 : NaN;
  return ((elapsedMs / done) * (total - done)) / 1000;
}
