import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NAEP = path.resolve(ROOT, 'public/demo');
const run = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [path.join(ROOT, 'bin/llm-nrm.js'), ...args], {
    encoding: 'utf8',
    timeout: 300_000,
    env: { ...process.env, ...env },
  });

/** `llm-nrm fit` of the demo's wide CSV with `model` (and `extra` flags) into `out`, quietly. */
const fitWide = (model: string, out: string, extra: string[] = []) =>
  run([
    'fit',
    path.join(NAEP, 'econ-reading.wide.csv'),
    '--model',
    model,
    ...extra,
    '--out',
    out,
    '--quiet',
  ]);

describe('llm-nrm CLI (bin/llm-nrm.js)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'llmnrm-cli-'));

  it('fit writes fit.json with the documented fields, and info writes one row per item', () => {
    const out = path.join(dir, 'fit.json');
    const r = fitWide('llmnrm', out, ['--steps', '400']);
    expect(r.status, r.stderr).toBe(0);
    const fit = JSON.parse(readFileSync(out, 'utf8'));
    for (const k of [
      'model',
      'objective',
      'crossEntropy',
      'penalty',
      'meanCrossEntropy',
      'steps',
      'converged',
      'seconds',
      'engine',
      'llms',
      'items',
      'global',
    ])
      expect(fit).toHaveProperty(k);
    expect(fit.llms).toHaveLength(18);
    expect(Object.keys(fit.llms[0])).toEqual(
      expect.arrayContaining(['id', 'theta', 'thetaSE', 's', 'delta', 'rho', 'accuracy']),
    );
    expect(fit.items[0].a).toHaveLength(4);
    expect(fit.objective).toBeCloseTo(fit.crossEntropy + fit.prior, 6);
    // The default's gate form, recorded and said (issue 27). On the demo the
    // fitted margin gate opens at a few cells (G reaches 1 where an LLM is far
    // from an item's key); the words follow the number either way.
    expect(fit.gate).toBe('margin');
    expect(r.stderr).toMatch(
      fit.gateMax < 1e-3
        ? /the fallback gate is shut on this data; the fit equals the no-fallback model/i
        : new RegExp(`The fallback gate is open: G reaches ${fit.gateMax.toFixed(3)}`),
    );
    // The step cap bounds each start's runs together (each run may take one
    // L-BFGS step past its share: fast.ts always takes one); fit.json's steps
    // are the kept start's (branch.ts).
    expect(fit.steps).toBeLessThanOrEqual(403);
    const info = path.join(dir, 'info.csv');
    const r2 = run(['info', out, '--out', info]);
    expect(r2.status, r2.stderr).toBe(0);
    const rows = Papa.parse<Record<string, string>>(readFileSync(info, 'utf8'), {
      header: true,
      skipEmptyLines: true,
    }).data;
    expect(rows).toHaveLength(345);
    expect(rows.every((row) => Number(row.infoWrong) >= 0 && Number(row.infoBinary) >= 0)).toBe(
      true,
    );
  });

  it('binary models write slope, d, g, u per item', () => {
    const out = path.join(dir, 'fit2.json');
    const r = fitWide('3pl', out);
    expect(r.status, r.stderr).toBe(0);
    const it = JSON.parse(readFileSync(out, 'utf8')).items[0];
    expect(Object.keys(it)).toEqual(expect.arrayContaining(['slope', 'd', 'g', 'u', 'b']));
  });

  it('bad input exits non-zero and prints the validation message with file, line and column', () => {
    const bad = path.join(dir, 'bad.csv');
    writeFileSync(bad, 'model,item,key,A,B\nm1,i1,A,0.5,0.5\nm1,i2,C,0.2,0.8\n');
    const r = run(['fit', bad, '--out', path.join(dir, 'x.json')]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/bad\.csv.*line 3.*key/);
  });

  it('a long file without its items file is refused', () => {
    const r = run([
      'fit',
      path.join(NAEP, 'econ-reading.long-logprob.csv'),
      '--out',
      path.join(dir, 'y.json'),
    ]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/items/);
  });

  it('refuses a file estimated too big for memory, and loads a sample when asked', () => {
    const wide = path.join(NAEP, 'econ-reading.wide.csv');
    const out = path.join(dir, 's.json');
    const refused = run(['fit', wide, '--out', out], { LLM_NRM_MEMORY_BUDGET: '1500000' });
    expect(refused.status, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(/too large: needs about .* MiB \(budget 1\.4 MiB\)/);
    const sampled = run([
      'fit',
      wide,
      '--sample',
      '0.5',
      '--steps',
      '200',
      '--out',
      out,
      '--quiet',
    ]);
    expect(sampled.status, sampled.stderr).toBe(0);
    const n = JSON.parse(readFileSync(out, 'utf8')).items.length;
    expect(n).toBeGreaterThan(100);
    expect(n).toBeLessThan(250);
    expect(sampled.stderr).toMatch(/sampled 50% of items/);
  });

  it('evaluate compress is wired to the compression run', () => {
    const r = run(['evaluate', 'compress']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/No data files given/);
    expect(run(['evaluate', 'nope']).stderr).toMatch(/compress/);
  });

  it('unknown options are usage errors', () => {
    const r = run(['fit', '--model', 'nope', path.join(NAEP, 'econ-reading.wide.csv')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--model must be one of/);
    const p = run(['fit', '--precision', 'half', path.join(NAEP, 'econ-reading.wide.csv')]);
    expect(p.status).toBe(2);
    expect(p.stderr).toMatch(/--precision must be one of mixed, float64; got "half"/);
    const c = run(['fit', '--curvature', 'probed', path.join(NAEP, 'econ-reading.wide.csv')]);
    expect(c.status).toBe(2);
    expect(c.stderr).toMatch(/--curvature must be one of exact, blocks, counts; got "probed"/);
    const ff = run(['fit', '--final-fit', 'adam', path.join(NAEP, 'econ-reading.wide.csv')]);
    expect(ff.status).toBe(2);
    expect(ff.stderr).toMatch(/--final-fit must be one of lbfgs, alternate; got "adam"/);
    const g = run(['fit', '--gate', 'ratio', path.join(NAEP, 'econ-reading.wide.csv')]);
    expect(g.status).toBe(2);
    expect(g.stderr).toMatch(/--gate must be one of margin, eq10; got "ratio"/);
    // Paper mode is eq. 10's gate exactly.
    const pm = run([
      'fit',
      '--mode',
      'paper',
      '--gate',
      'margin',
      path.join(NAEP, 'econ-reading.wide.csv'),
    ]);
    expect(pm.status).toBe(2);
    expect(pm.stderr).toMatch(/--gate margin applies to the default mode/);
    const ip = run(['fit', '--item-priors', 'loose', path.join(NAEP, 'econ-reading.wide.csv')]);
    expect(ip.status).toBe(2);
    expect(ip.stderr).toMatch(/--item-priors must be one of fixed, strength; got "loose"/);
  });
});

describe('llm-nrm errors end in one line (issue 26)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'llmnrm-err-'));
  const one = path.join(dir, 'one.csv');
  writeFileSync(one, 'model,item,key,A,B\nm1,q1,A,.6,.4\nm1,q2,B,.3,.7\n');
  const real = path.join(ROOT, 'src/core/data/fixtures/real/inspect');
  const lastLine = (s: string) => s.trimEnd().split('\n').pop()!;
  const noTrace = (s: string) => expect(s).not.toMatch(/^\s+at /m);

  it('one model: names --mode paper, exit 2, no stack trace (a trace only with --debug)', () => {
    const r = run(['fit', one, '--out', path.join(dir, 'f.json')]);
    expect(r.status).toBe(2);
    expect(lastLine(r.stderr)).toMatch(/^llm-nrm: only 1 LLM was loaded \('m1'\).*--mode paper$/);
    noTrace(r.stderr);
    const d = run(['fit', one, '--out', path.join(dir, 'f.json'), '--debug']);
    expect(d.stderr).toMatch(/^\s+at /m);
    expect(lastLine(d.stderr)).toBe(lastLine(r.stderr));
  });

  it('a bad flag: names it after the usage, exit 2', () => {
    const r = run(['fit', one, '--bogus']);
    expect(r.status).toBe(2);
    expect(lastLine(r.stderr)).toBe(
      "llm-nrm: unknown flag --bogus (this command's flags are listed above)",
    );
    noTrace(r.stderr);
  });

  it('no usable file: every file with why, then one line; --strict fails on the first', () => {
    const r = run(['fit', real, '--out', path.join(dir, 'f.json')]);
    expect(r.status).toBe(1);
    expect(lastLine(r.stderr)).toBe(
      'llm-nrm: invalid input: no usable data file: 4 files gave nothing (listed above)',
    );
    expect(r.stderr).toMatch(/log_formats\.eval: no usable record: 1 samples without choices/);
    expect(r.stderr).toMatch(/mmlu-summary-choices\.eval: .*run with --logprobs --top-logprobs/);
    noTrace(r.stderr);
    const s = run(['fit', real, one, '--strict', '--out', path.join(dir, 'f.json')]);
    expect(s.status).toBe(1);
    expect(lastLine(s.stderr)).toMatch(
      /^llm-nrm: invalid input: \S+_no-samples\.json: strict mode: this file could not be used: column samples: the log holds no samples \(its status is 'cancelled'\)$/,
    );
  });

  it('skipped files are listed by reason, and the rest loads', () => {
    const two = path.join(dir, 'two.csv');
    writeFileSync(two, 'model,item,key,A,B\nm1,q1,A,.6,.4\nm2,q1,A,.3,.7\n');
    const r = run(['classical', real, two, '--out', path.join(dir, 'c.csv')]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /skipped 4 files that could not be used \(--strict makes this an error\):\n(.*\n){2} {2}no usable record: 3 samples without choices \(not multiple choice\) \(2\):\n {4}\S+popularity\.json\n {4}\S+log_formats\.eval: no usable record: 1 samples without choices \(not multiple choice\)\n/,
    );
  });
});
