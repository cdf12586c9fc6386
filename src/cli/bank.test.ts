import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Papa from 'papaparse';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NAEP = path.resolve(ROOT, 'public/demo');
const WIDE = path.join(NAEP, 'econ-reading.wide.csv');
const ITEMS = path.join(NAEP, 'econ-reading.items.csv');
const run = (args: string[]) =>
  spawnSync(process.execPath, [path.join(ROOT, 'bin/llm-nrm.js'), ...args], {
    encoding: 'utf8',
    timeout: 120_000,
  });
/** Runs the CLI, expecting exit 0 (its stderr shown when not). */
function succeeds(args: string[]) {
  const r = run(args);
  expect(r.status, r.stderr).toBe(0);
  return r;
}
const csv = (file: string) =>
  Papa.parse<Record<string, string>>(readFileSync(file, 'utf8'), {
    header: true,
    skipEmptyLines: true,
  }).data;

describe('llm-nrm bank, score, cat, select, flags, compress', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'llmnrm-bank-'));
  const f = (name: string) => path.join(dir, name);

  beforeAll(() => {
    succeeds(['fit', WIDE, '--steps', '300', '--out', f('fit.json'), '--quiet']);
  });

  it('bank save writes a valid bank and its parameter table; bank check and table read it', () => {
    succeeds([
      'bank',
      'save',
      f('fit.json'),
      '--out',
      f('bank.json'),
      '--table',
      f('params.csv'),
      '--items',
      ITEMS,
      '--data',
      WIDE,
    ]);
    const bank = JSON.parse(readFileSync(f('bank.json'), 'utf8'));
    expect(bank.schema).toBe('llm-nrm-bank/1');
    expect(bank.provenance.dataFiles).toEqual([WIDE]);
    expect(bank.items[0].question).toBeTruthy();
    expect(csv(f('params.csv'))).toHaveLength(345 * 9 + 2);
    expect(run(['bank', 'check', f('bank.json')]).status).toBe(0);
    expect(run(['bank', 'table', f('bank.json'), '--out', f('p2.csv')]).status).toBe(0);
    expect(readFileSync(f('p2.csv'), 'utf8')).toBe(readFileSync(f('params.csv'), 'utf8'));
  });

  it('score and cat write one row per LLM; select writes a loadable tiny benchmark', () => {
    succeeds(['score', '--bank', f('bank.json'), WIDE, '--out', f('scores.csv')]);
    const scores = csv(f('scores.csv'));
    expect(scores).toHaveLength(18);
    expect(Object.keys(scores[0])).toEqual(['llm', 'theta', 'se', 's', 'accuracy', 'n_items']);
    succeeds([
      'cat',
      '--bank',
      f('bank.json'),
      WIDE,
      '--max-items',
      '10',
      '--trace',
      f('trace.csv'),
      '--out',
      f('cat.csv'),
    ]);
    const cat = csv(f('cat.csv'));
    expect(cat).toHaveLength(18);
    expect(cat.every((row) => row.n_items === '10' && row.items.split(' ').length === 10)).toBe(
      true,
    );
    expect(csv(f('trace.csv'))).toHaveLength(180);
    succeeds([
      'select',
      '--bank',
      f('bank.json'),
      '--k',
      '12',
      '--range=-1,2',
      '--out',
      f('tiny.csv'),
    ]);
    const tiny = csv(f('tiny.csv'));
    expect(tiny).toHaveLength(12);
    expect(tiny[0].question).toBeTruthy();
    // The tiny benchmark is an items file: it loads with the data.
    succeeds(['fit', f('tiny.csv'), WIDE, '--steps', '5', '--out', f('fit2.json'), '--quiet']);
  });

  it('flags writes the documented columns, from a fit or a bank', () => {
    succeeds(['flags', f('fit.json'), WIDE, '--out', f('flags.csv')]);
    expect(readFileSync(f('flags.csv'), 'utf8').split('\r\n')[0]).toBe(
      'item,benchmark,key,flag,option,reason,evidence',
    );
    expect(run(['flags', f('bank.json'), '--out', f('flags2.csv')]).status).toBe(0);
  });

  it('compress writes τ per model and budget', () => {
    const r = succeeds([
      'compress',
      WIDE,
      '--folds',
      '3',
      '--models',
      'nrm-soft,2pl',
      '--budgets',
      '5,20',
      '--steps',
      '200',
      '--quiet',
      '--out',
      f('fig3a.csv'),
    ]);
    const rows = csv(f('fig3a.csv'));
    expect(rows.map((x) => `${x.model}@${x.k}`)).toEqual([
      'nrm-soft@5',
      'nrm-soft@20',
      '2pl@5',
      '2pl@20',
    ]);
    expect(r.stderr).toMatch(/nrm-soft: smallest k with τ ≥ 0.85/);
  });

  it('refuses bad input with a clear message', () => {
    const notBank = run(['score', '--bank', f('fit.json'), WIDE, '--out', f('x.csv')]);
    expect(notBank.status).toBe(2);
    expect(notBank.stderr).toMatch(/this is a fit\.json: run `llm-nrm bank save`/);
    const bank = JSON.parse(readFileSync(f('bank.json'), 'utf8'));
    bank.items[0].a = [1];
    writeFileSync(f('broken.json'), JSON.stringify(bank));
    const broken = run(['cat', '--bank', f('broken.json'), WIDE]);
    expect(broken.status).toBe(2);
    expect(broken.stderr).toMatch(/items\[0\] \("NAEP-E407201"\): a must be 4 finite numbers/);
    expect(run(['score', WIDE]).stderr).toMatch(/needs --bank/);
    expect(run(['bank']).status).toBe(2);
    expect(run(['compress', WIDE, '--folds', '10']).stderr).toMatch(
      /at least 2 held-out LLMs per fold/,
    );
  });
});
