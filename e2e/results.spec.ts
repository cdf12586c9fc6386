import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { open, pickFiles, waitState } from './helpers';

test.beforeEach(async ({ page }) => open(page));

/** A harness sample record in the `--log_samples` schema. */
const record = (id: string, n: number, probs: number[], key: number, filter = 'none') => ({
  doc_id: n,
  doc: { id, question: `Question ${id}?`, choices: probs.map((_, k) => `choice ${k}`) },
  target: key,
  arguments: Object.fromEntries(
    probs.map((_, k) => [`gen_args_${k}`, { arg_0: `Question ${id}?`, arg_1: ` choice ${k}` }]),
  ),
  resps: probs.map((p) => [[String(Math.log(p)), 'False']]),
  filtered_resps: probs.map((p) => [String(Math.log(p)), 'False']),
  filter,
  metrics: ['acc'],
  // The harness's own score: 1 where the keyed choice has the largest log-likelihood.
  acc: probs.indexOf(Math.max(...probs)) === key ? 1 : 0,
});

test('a harness output root (gzip, results_*.json, older run, two filters) by folder pick', async ({
  page,
}) => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'e2e-harness-root-'));
  const stamp = '2025-03-04T05-06-07.891011';
  for (let m = 0; m < 3; m++) {
    const dir = path.join(root, 'out', `org__model-${m}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, `results_${stamp}.json`),
      JSON.stringify({ model_name: `org/model-${m}` }),
    );
    const recs = Array.from({ length: 8 }, (_, i) =>
      record(`item-${i}`, i, [0.1 + 0.1 * ((i + m) % 4), 0.3, 0.2], i % 3),
    );
    const lines = [...recs, ...recs.map((r) => ({ ...r, filter: 'strict-match' }))];
    const text = lines.map((r) => JSON.stringify(r)).join(m === 1 ? '\r\n' : '\n');
    writeFileSync(path.join(dir, `samples_toy_${stamp}.jsonl.gz`), gzipSync(text));
    writeFileSync(path.join(dir, 'samples_toy_2024-01-01T00-00-00.jsonl'), 'not even JSON\n');
  }
  await page.getByTestId('folder-input').setInputFiles(path.join(root, 'out'));
  await waitState(page, 'loaded');
  await expect(page.getByTestId('summary-J')).toHaveText('3');
  await expect(page.getByTestId('summary-I')).toHaveText('8');
});

test('an Inspect .json log, picked', async ({ page }) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'e2e-inspect-'));
  const sample = (i: number) => ({
    id: i + 1,
    epoch: 1,
    input: `Question ${i}?`,
    choices: ['red', 'green', 'blue'],
    target: 'ABC'[i % 3],
    output: {
      choices: [
        {
          message: { role: 'assistant', content: 'ANSWER: A' },
          logprobs: {
            content: [
              {
                token: ' A',
                logprob: -0.4,
                top_logprobs: [
                  { token: ' A', logprob: -0.4 },
                  { token: ' B', logprob: -1.5 - i / 10 },
                  { token: ' C', logprob: -2.5 },
                ],
              },
            ],
          },
        },
      ],
    },
  });
  const files = ['model-a', 'model-b'].map((model) => {
    const file = path.join(dir, `${model}.json`);
    const log = {
      version: 2,
      status: 'success',
      eval: { task: 'toy', model },
      samples: [0, 1, 2, 3].map(sample),
    };
    writeFileSync(file, JSON.stringify(log, null, 2));
    return file;
  });
  await pickFiles(page, files);
  await waitState(page, 'loaded');
  await expect(page.getByTestId('summary-J')).toHaveText('2');
  await expect(page.getByTestId('summary-I')).toHaveText('4');
});
