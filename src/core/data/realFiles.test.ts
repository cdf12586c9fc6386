/**
 * Real evaluator output (fixtures/real, origins in its README): each file is
 * read or skipped for its real reason, in a folder walk as from the CLI.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDatasetFromPaths } from '../../node/files.ts';
import { fixturesDir } from '../../../test/support/data/utils.ts';

const real = path.join(fixturesDir, 'real');
const at = (p: string) => path.join(real, p);

describe('real Inspect and HELM files (issue 26)', () => {
  it('Inspect 0.3.154 MMLU .eval without log-probabilities: says to run with --logprobs', async () => {
    await expect(loadDatasetFromPaths([at('inspect/mmlu-summary-choices.eval')])).rejects.toThrow(
      /mmlu-summary-choices\.eval: no usable record: 1 samples without log-probabilities \(run with --logprobs --top-logprobs\)/,
    );
  });

  it('Inspect 0.3.41 .eval of a match-scored task: not multiple choice', async () => {
    await expect(loadDatasetFromPaths([at('inspect/log_formats.eval')])).rejects.toThrow(
      /log_formats\.eval: no usable record: 1 samples without choices \(not multiple choice\)/,
    );
  });

  it('Inspect 0.3.95 .json logs, cancelled: one without samples, one not multiple choice', async () => {
    await expect(
      loadDatasetFromPaths([at('inspect/2025-05-12T20-28-13-04-00_no-samples.json')]),
    ).rejects.toThrow(
      /no-samples\.json, column samples: the log holds no samples \(its status is 'cancelled'\)/,
    );
    await expect(
      loadDatasetFromPaths([at('inspect/2025-05-12T20-28-13-04-00_popularity.json')]),
    ).rejects.toThrow(
      /popularity\.json: no usable record: 3 samples without choices \(not multiple choice\)/,
    );
  });

  it('HELM July 2024 joint adapter: no top_logprobs, so no value per option', async () => {
    await expect(
      loadDatasetFromPaths([at('helm/bbq-joint-qwen2-72b/scenario_state.json')]),
    ).rejects.toThrow(
      /record 1: no top_logprobs: this HELM output keeps only the log-probability of the letter the model wrote/,
    );
  });

  it('the whole folder: every file listed with its own reason', async () => {
    const err = await loadDatasetFromPaths([at('inspect'), at('helm')]).catch((e: Error) => e);
    const lines = (err as Error).message.split('\n');
    expect(lines[0]).toBe('no usable data file: 5 files gave nothing:');
    expect(lines.slice(1).map((l) => path.relative(real, l.trim().split(': ')[0]))).toEqual([
      'inspect/2025-05-12T20-28-13-04-00_no-samples.json',
      'inspect/2025-05-12T20-28-13-04-00_popularity.json',
      'inspect/log_formats.eval',
      'inspect/mmlu-summary-choices.eval',
      'helm/bbq-joint-qwen2-72b/scenario_state.json',
    ]);
  });
});
