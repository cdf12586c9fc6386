import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DEMO = path.resolve(ROOT, 'public/demo/econ-reading.wide.csv');
const run = (args: string[]) =>
  spawnSync(process.execPath, [path.join(ROOT, 'bin/llm-nrm.js'), ...args], {
    encoding: 'utf8',
    timeout: 300_000,
  });
const readCsv = (p: string) =>
  Papa.parse<Record<string, string>>(readFileSync(p, 'utf8'), {
    header: true,
    skipEmptyLines: true,
  });

describe('psychometric commands (bin/llm-nrm.js)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'llmnrm-psych-'));
  const fitPath = path.join(dir, 'fit.json');

  it('itemfit writes the documented columns per item and per LLM', () => {
    const r0 = run(['fit', DEMO, '--model', '2pl', '--out', fitPath, '--quiet']);
    expect(r0.status, r0.stderr).toBe(0);
    const out = path.join(dir, 'itemfit.csv');
    const llms = path.join(dir, 'llmfit.csv');
    const r = run(['itemfit', fitPath, DEMO, '--out', out, '--llms', llms]);
    expect(r.status, r.stderr).toBe(0);
    const items = readCsv(out);
    expect(items.meta.fields?.slice(0, 7).join(',')).toBe(
      'item,benchmark,infit,outfit,z_infit,z_outfit,n',
    );
    expect(items.data).toHaveLength(345);
    expect(items.data.every((row) => Number(row.n) === 18 && Number(row.infit) > 0)).toBe(true);
    const persons = readCsv(llms);
    expect(persons.data).toHaveLength(18);
    expect(r.stderr).toMatch(/binary-level residuals/);
  }, 300_000);

  it('reliability writes an all row and one per benchmark', () => {
    const out = path.join(dir, 'rel.csv');
    const r = run(['reliability', fitPath, DEMO, '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    const rows = readCsv(out).data;
    expect(rows.map((row) => row.benchmark)).toEqual(['all', 'naep-economics', 'naep-reading']);
    expect(rows.every((row) => Number(row.empirical) > 0 && Number(row.empirical) < 1)).toBe(true);
    expect(Number(rows[0].alphaN)).toBe(18);
  });

  it('classical writes item, option-share and DDplot tables', () => {
    const out = path.join(dir, 'classical.csv');
    const dd = path.join(dir, 'dd.csv');
    const opts = path.join(dir, 'options.csv');
    const r = run(['classical', DEMO, '--out', out, '--dd', dd, '--options', opts]);
    expect(r.status, r.stderr).toBe(0);
    expect(readCsv(out).meta.fields?.join(',')).toBe(
      'item,benchmark,key,n,pCorrect,meanKeyProb,itemRest,ULI',
    );
    expect(readCsv(out).data).toHaveLength(345);
    expect(readCsv(opts).data).toHaveLength(345 * 4);
    expect(readCsv(dd).data).toHaveLength(345 * 4 * 3);
  });
});

describe('llm-nrm compare', () => {
  it('writes model,logLik,nPar,AIC,BIC,heldOutLogLoss per model', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'llmnrm-compare-'));
    const out = path.join(dir, 'compare.csv');
    const r = run([
      'compare',
      DEMO,
      '--models',
      'nrm-soft,2pl',
      '--folds',
      '2',
      '--quiet',
      '--out',
      out,
    ]);
    expect(r.status, r.stderr).toBe(0);
    const csv = readCsv(out);
    expect(csv.meta.fields?.slice(0, 6).join(',')).toBe('model,logLik,nPar,AIC,BIC,heldOutLogLoss');
    expect(csv.data.map((row) => row.model)).toEqual(['nrm-soft', '2pl']);
    for (const row of csv.data) {
      expect(Number(row.logLik)).toBeLessThan(0);
      expect(Number(row.heldOutLogLoss)).toBeGreaterThan(0);
    }
    expect(r.stderr).toMatch(/primary criterion/);
  }, 300_000);
});

describe('llm-nrm dif', () => {
  it('writes MH and LR columns per item for a model,group file', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'llmnrm-dif-'));
    const groups = path.join(dir, 'groups.csv');
    const names = readCsv(path.resolve(ROOT, 'public/demo/models.csv')).data.map((r) => r.model);
    writeFileSync(
      groups,
      'model,group\n' +
        names.map((m) => `${m},${m.startsWith('Qwen') ? 'qwen' : 'other'}`).join('\n'),
    );
    const out = path.join(dir, 'dif.csv');
    const r = run(['dif', DEMO, '--groups', groups, '--model', '2pl', '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    const csv = readCsv(out);
    expect(csv.data).toHaveLength(345);
    expect(csv.meta.fields).toEqual(expect.arrayContaining(['mhDelta', 'ets', 'lrChi2', 'lrFlag']));
    expect(csv.data[0].reference).toBe('other');
    expect(csv.data[0].focal).toBe('qwen');
  }, 300_000);
});
