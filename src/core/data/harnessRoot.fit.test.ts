import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fitDataset } from '../fit/fit.ts';
import { loadDatasetFromPaths } from '../../node/files.ts';
import { readWide, writeHarnessRoot } from '../../../test/support/data/harnessRoot.ts';
import { demoDir } from '../../../test/support/data/utils.ts';

const widePath = path.join(demoDir, 'econ-reading.wide.csv');

describe('issue 13 acceptance: an lm-evaluation-harness output root', () => {
  const root = writeHarnessRoot(
    mkdtempSync(path.join(os.tmpdir(), 'llmnrm-harness-root-')),
    readWide(readFileSync(widePath, 'utf8')),
  );

  it('loads 18 LLMs with doc.id item ids and fits to the wide CSV objective (1e-6 relative)', async () => {
    const [wide, logs] = [
      await loadDatasetFromPaths([widePath]),
      await loadDatasetFromPaths([root]),
    ];
    expect(logs.J).toBe(18);
    expect([...logs.llmIds].sort()).toEqual([...wide.llmIds].sort());
    expect([...logs.itemIds].sort()).toEqual([...wide.itemIds].sort());
    // The older run and the second filter were dropped, each with a note.
    expect(logs.warnings.some((w) => /older run/.test(w.message))).toBe(true);
    expect(logs.warnings.some((w) => /kept filter 'none'.*'strict-match'/.test(w.message))).toBe(
      true,
    );
    const [a, b] = [await fitDataset(wide, {}), await fitDataset(logs, {})];
    expect(Math.abs(b.objective - a.objective) / Math.abs(a.objective)).toBeLessThan(1e-6);
  }, 600_000);
});
