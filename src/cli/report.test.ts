import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PATHS, demoFit } from '../report/testing';

const run = (args: string[]) =>
  spawnSync(process.execPath, ['bin/llm-nrm.js', 'report', ...args], {
    encoding: 'utf8',
    timeout: 120_000,
  });

/** Runs the CLI, expecting a refusal (exit 2) whose stderr says `message`. */
function refuses(args: string[], message: string) {
  const r = run(args);
  expect(r.status).toBe(2);
  expect(r.stderr).toContain(message);
}

describe('llm-nrm report', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'llmnrm-report-'));
  const [items, wide] = DEMO_PATHS;
  const fitFile = path.join(dir, 'fit.json');
  const otherFit = path.join(dir, 'other.json');
  beforeAll(async () => {
    const { fit } = await demoFit();
    writeFileSync(fitFile, JSON.stringify(fit));
    writeFileSync(otherFit, JSON.stringify({ ...fit, items: fit.items.slice(0, 300) }));
  }, 300_000);

  it('writes one HTML file from a fit.json, dated once', () => {
    const out = path.join(dir, 'r.html');
    const r = run([wide, '--items', items, '--fit', fitFile, '--budgets', '20,41', '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html.match(/<p class="date">Generated \d{4}-\d\d-\d\dT[^<]+<\/p>/g)).toHaveLength(1);
    expect(html).toContain('The 20-item subset, most informative first');
    expect(r.stderr).toMatch(/r\.html: \d+ KiB in [\d.]+ s/);
  });

  it('refuses without --out, with bad budgets, and with a fit of other data, saying which', () => {
    refuses([wide, '--fit', fitFile], 'report needs --out report.html');
    refuses(
      [wide, '--fit', fitFile, '--budgets', '41,x', '--out', path.join(dir, 'b.html')],
      '--budgets expects whole numbers ≥ 2',
    );
    refuses(
      [wide, '--items', items, '--fit', otherFit, '--out', path.join(dir, 'o.html')],
      `${otherFit}: The fit is not of this data set`,
    );
  });
});
