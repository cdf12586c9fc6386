/**
 * OpenCompass PPL predictions in the writer's layout (fixtures/opencompass, see
 * its README): keys read from `gold` whatever the labels are (letters, the
 * numbers 1/2 with string golds, 0/1 with numeric golds), and checked against
 * the producer's own `prediction` on every sample.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDatasetFromPaths } from '../../node/files.ts';
import { fixturesDir } from '../../../test/support/data/utils.ts';
import { loadDataset } from './load.ts';

const folder = path.join(fixturesDir, 'opencompass', 'predictions', 'hf_tiny_llama');

describe('OpenCompass PPL predictions (writer layout)', () => {
  it('reads the keys from gold and agrees with the producer on every sample', async () => {
    const ds = await loadDatasetFromPaths([folder]);
    expect(ds.llmIds).toEqual(['hf_tiny_llama']);
    expect(ds.I).toBe(7);
    const key = new Map(ds.itemIds.map((it, i) => [it, ds.key[i]]));
    expect(Object.fromEntries(key)).toEqual({
      'ARC-c/0': 1,
      'ARC-c/1': 2,
      'ARC-c/2': 1,
      'piqa/0': 0,
      'piqa/1': 1,
      'winogrande/0': 0,
      'winogrande/1': 0,
    });
    const checks = Object.fromEntries(
      ds.sources.map((s) => [path.basename(s.file), s.producerCheck]),
    );
    expect(checks).toEqual({
      'ARC-c.json': { producer: 'OpenCompass', metric: 'prediction', agree: 3, total: 3, ties: 0 },
      'piqa.json': { producer: 'OpenCompass', metric: 'prediction', agree: 2, total: 2, ties: 0 },
      'winogrande.json': {
        producer: 'OpenCompass',
        metric: 'prediction',
        agree: 2,
        total: 2,
        ties: 0,
      },
    });
    // The check is a note shown once (code 'keycheck'), not part of another warning.
    const notes = ds.warnings.filter((w) => w.code === 'keycheck').map((w) => w.message);
    expect(notes).toContain("keys agree with OpenCompass's prediction on 3 of 3 records");
    expect(ds.warnings.filter((w) => /keys agree/.test(w.message))).toHaveLength(3);
    expect(ds.warnings.every((w) => w.code === 'keycheck' || !/keys agree/.test(w.message))).toBe(
      true,
    );
  });

  it('refuses a file whose gold the producer scored differently from the key read here', async () => {
    // gold as an index (1) where the labels are letters: OpenCompass compares "B" with 1 and
    // scores the sample wrong, the reader would key it B and call it right.
    const doc = JSON.parse(readFileSync(path.join(folder, 'ARC-c.json'), 'utf8')) as Record<
      string,
      { gold: unknown }
    >;
    doc['0'].gold = 1;
    const name = 'outputs/default/20240101_000000/predictions/m/ARC-c.json';
    await expect(
      loadDataset([{ name, text: JSON.stringify(doc, null, 4) }], { strict: true }),
    ).rejects.toThrow(
      /disagree with OpenCompass's own prediction on 1 of 3 records; first at line 1: key B/,
    );
  });
});
