import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { loadDataset } from './load.ts';
import { inspectEval, zipOf, type Cells } from '../../../test/support/data/results.ts';

describe('Inspect .eval logs of full benchmarks', () => {
  it('reads a log of 6,000 samples (fflate once overflowed the stack, one frame per member)', async () => {
    const I = 6000;
    const cells: Cells = {
      task: 'big',
      models: ['m'],
      items: Array.from({ length: I }, (_, i) => ({
        id: `q${i}`,
        key: i % 2,
        question: `Q${i}?`,
        options: ['yes', 'no'],
      })),
      p: [Array.from({ length: I }, (_, i) => [0.25 + (i % 7) / 20, 0.75 - (i % 7) / 20])],
    };
    // DEFLATE members by ./zip.ts's inflater, Zstandard ones by fzstd.
    for (const method of [8, 93] as const) {
      const [f] = inspectEval(cells, method);
      const ds = await loadDataset([{ name: f.name, blob: new Blob([new Uint8Array(f.bytes!)]) }]);
      expect(ds.J, `method ${method}`).toBe(1);
      expect(ds.I, `method ${method}`).toBe(I);
      expect(ds.obs[(I - 1) * ds.Kmax]).toBeCloseTo(cells.p[0][I - 1][0], 6);
    }
  }, 120_000);
});

describe('Inspect .eval members', () => {
  const cells: Cells = {
    task: 'small',
    models: ['m'],
    items: [0, 1].map((i) => ({ id: `q${i}`, key: i, question: `Q${i}?`, options: ['yes', 'no'] })),
    p: [
      [
        [0.7, 0.3],
        [0.2, 0.8],
      ],
    ],
  };
  /** The test log's members (name, text), edited, zipped again. */
  const log = (edit: (m: [string, string][]) => [string, string][], method: 8 | 93 = 8) => {
    const [f] = inspectEval(cells, 8);
    const dec = new TextDecoder();
    const members = Object.entries(unzipSync(f.bytes!)).map(([name, data]): [string, string] => [
      name,
      dec.decode(data),
    ]);
    return { name: f.name, blob: new Blob([new Uint8Array(zipOf(edit(members), method))]) };
  };

  it('reads the header and the first epoch; later epochs are dropped with a note, summaries unread', async () => {
    for (const method of [8, 93] as const) {
      const f = log((m) => {
        const epoch2 = m
          .filter(([n]) => n.startsWith('samples/'))
          .map(([n, t]): [string, string] => [
            n.replace('_epoch_1', '_epoch_2'),
            JSON.stringify({ ...JSON.parse(t), epoch: 2 }),
          ]);
        // summaries.json is not JSON here: it is not read, so it cannot fail the log.
        return [...m.filter(([n]) => n !== 'summaries.json'), ...epoch2, ['summaries.json', '{']];
      }, method);
      const ds = await loadDataset([f]);
      expect(ds.I, `method ${method}`).toBe(2);
      expect(ds.obs[0]).toBeCloseTo(0.7, 6);
      expect(ds.warnings.map((w) => w.message).join('\n')).toMatch(
        /took 2 records \(model m\); dropped 2 samples of epochs after the first/,
      );
    }
  });

  it('names a sample member that is not JSON', async () => {
    const f = log((m) => m.map(([n, t]) => [n, n === 'samples/2_epoch_1.json' ? t.slice(1) : t]));
    await expect(loadDataset([f], { strict: true })).rejects.toThrow(
      /cannot read a member: samples\/2_epoch_1\.json: invalid JSON/,
    );
  });

  it('refuses a truncated ZIP', async () => {
    const [f] = inspectEval(cells, 8);
    const blob = new Blob([new Uint8Array(f.bytes!.subarray(0, 200))]);
    await expect(loadDataset([{ name: f.name, blob }], { strict: true })).rejects.toThrow(
      /cannot read the ZIP: not a ZIP archive \(no end of central directory\)/,
    );
  });
});
