/** Checks every load of damaged input must pass, for the property tests (not used by the app). */
import { expect } from 'vitest';
import type { DataError, Dataset } from '../../../src/core/data/types.ts';

/** Rejects after `ms` so a hanging load fails the case instead of the whole run. */
export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
  });
  return Promise.race([p, limit]).finally(() => clearTimeout(timer));
}

/**
 * A DataError must name its file (and line, when it has one) and stay short. When
 * no file gave data the error names their common folder instead, and its message
 * lists each file that gave nothing, with its own reason.
 */
export function checkDataError(e: DataError, files: string[]): void {
  if (e.message.startsWith('no usable data file:')) {
    const lines = e.message.split('\n').slice(1);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(files.some((f) => line.startsWith(`  ${f}`))).toBe(true);
    return;
  }
  expect(files).toContain(e.file);
  expect(e.message.startsWith(e.file)).toBe(true);
  if (e.line !== undefined) {
    expect(e.line).toBeGreaterThanOrEqual(1);
    expect(e.message).toContain(`line ${e.line}`);
  }
  expect(e.message.length).toBeLessThan(600);
}

/** Whatever loads must be a well-formed Dataset. */
export function checkDataset(ds: Dataset): void {
  expect(ds.llmIds.length).toBe(ds.J);
  expect(ds.itemIds.length).toBe(ds.I);
  expect(ds.obs.length).toBe(ds.J * ds.I * ds.Kmax);
  for (let i = 0; i < ds.I; i++) {
    expect(ds.nOptions[i]).toBeGreaterThanOrEqual(2);
    expect(ds.nOptions[i]).toBeLessThanOrEqual(10);
    expect(ds.key[i]).toBeLessThan(ds.nOptions[i]);
  }
  for (let c = 0; c < ds.J * ds.I; c++) {
    const K = ds.nOptions[c % ds.I];
    let s = 0;
    for (let k = 0; k < ds.Kmax; k++) {
      const v = ds.obs[c * ds.Kmax + k];
      expect(Number.isFinite(v) && v >= 0).toBe(true);
      if (k >= K || !ds.observed[c]) expect(v).toBe(0);
      s += v;
    }
    if (ds.observed[c]) expect(Math.abs(s - 1)).toBeLessThan(1e-5);
  }
}

/** True when the bytes are not valid UTF-8. */
export function isInvalidUtf8(b: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(b);
    return false;
  } catch {
    return true;
  }
}
