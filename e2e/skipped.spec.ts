/**
 * Issue 26 in the browser: a folder mixing usable Inspect logs with files that
 * cannot be used (a generative harness run, a broken JSON line, a Git LFS
 * pointer, a real Inspect log without log-probabilities) loads the usable ones
 * and lists the others grouped by reason; the strict option fails naming the first.
 */
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { cellsOf } from '../test/support/data/harnessFiles';
import { inspectJson } from '../test/support/data/results';
import { simulateNominal } from '../src/core/model/simulate';
import { waitState } from './helpers';

test.describe.configure({ timeout: 120_000 });

const cells = cellsOf(simulateNominal({ J: 3, I: 20, K: 4, seed: 7, concentration: 60 }).data);
const LFS =
  'version https://git-lfs.github.com/spec/v1\n' +
  'oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 1234567\n';
const gen = { doc_id: 0, doc: { id: 'g' }, target: 'B', resps: [['B']], filtered_resps: ['B'] };

/** The mixed folder, written under a fresh temporary folder; returns its path. */
function mixedFolder(): string {
  const root = path.join(mkdtempSync(path.join(os.tmpdir(), 'e2e-skipped-')), 'results');
  const put = (name: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  };
  for (const f of inspectJson(cells)) put(f.name, f.text!);
  put('gen-model/samples_gsm_2025-01-01T00-00-00.jsonl', `${JSON.stringify(gen)}\n`);
  put('broken-model/samples_t_2025-01-01T00-00-00.jsonl', '{"doc_id": 0,\n');
  put('lfs/details.parquet', LFS);
  put('lfs2/details.parquet', LFS);
  const real = path.resolve('src/core/data/fixtures/real/inspect/mmlu-summary-choices.eval');
  copyFileSync(real, path.join(root, 'mmlu-summary-choices.eval'));
  return root;
}

test('a mixed folder: the usable logs load, the rest are listed grouped by reason', async ({
  page,
}) => {
  const folder = mixedFolder();
  await page.goto('/?nodemo');
  await waitState(page, 'empty');
  await page.getByTestId('folder-input').setInputFiles(folder);
  await expect(page.getByTestId('summary-J')).toHaveText('3', { timeout: 60_000 });
  await expect(page.getByTestId('summary-I')).toHaveText('20');
  const groups = page.getByTestId('skipped-group');
  await expect(groups).toHaveCount(4);
  const lfs = groups.filter({ hasText: 'Git LFS pointer' });
  await expect(lfs.getByTestId('skipped-file')).toHaveCount(2);
  await expect(lfs.getByTestId('skipped-reason')).toHaveText(
    /^this is a Git LFS pointer to a file of 1,234,567 bytes, not the file's content; fetch the file \(git lfs pull\)/,
  );
  await expect(groups.filter({ hasText: 'run generatively' })).toContainText('gen-model/');
  await expect(groups.filter({ hasText: 'invalid JSON' })).toContainText('broken-model/');
  await expect(groups.filter({ hasText: 'run with --logprobs --top-logprobs' })).toContainText(
    'mmlu-summary-choices.eval',
  );
  await expect(page.getByTestId('producer-checks')).toContainText(
    "keys agree with Inspect's choice score on 20 of 20 records",
  );

  // Strict: the same folder is refused, naming the first file that could not be used.
  await page.getByText('Reading options').click();
  await page.getByText('Strict: fail on any file').click();
  await page.getByTestId('folder-input').setInputFiles(folder);
  await waitState(page, 'error');
  await expect(page.getByTestId('error')).toContainText(
    /strict mode: this file could not be used: this is a Git LFS pointer.*\(and 1 more found so far\)/,
    { timeout: 60_000 },
  );
});

test('a folder with nothing usable: the error lists every file and why, one per line', async ({
  page,
}) => {
  await page.goto('/?nodemo');
  await waitState(page, 'empty');
  await page
    .getByTestId('folder-input')
    .setInputFiles(path.resolve('src/core/data/fixtures/real/inspect'));
  await waitState(page, 'error');
  await expect(page.getByTestId('error-where')).toHaveText('File inspect');
  const text = await page.getByTestId('error').innerText();
  expect(text).toMatch(/no usable data file: 4 files gave nothing:\n/);
  expect(text).toMatch(
    /\n\s*inspect\/mmlu-summary-choices\.eval: no usable record: 1 samples without log-probabilities \(run with --logprobs --top-logprobs\)/,
  );
  expect(text).toMatch(
    /\n\s*inspect\/log_formats\.eval: no usable record: 1 samples without choices/,
  );
});
