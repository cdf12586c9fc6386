import { describe, expect, it } from 'vitest';
import { loadDataset } from './load.ts';
import { inspectEval, type Cells } from '../../../test/support/data/results.ts';

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
    // DEFLATE members are read in one pass (unzipSync), Zstandard ones by the streaming Unzip.
    for (const method of [8, 93] as const) {
      const [f] = inspectEval(cells, method);
      const ds = await loadDataset([{ name: f.name, blob: new Blob([new Uint8Array(f.bytes!)]) }]);
      expect(ds.J, `method ${method}`).toBe(1);
      expect(ds.I, `method ${method}`).toBe(I);
      expect(ds.obs[(I - 1) * ds.Kmax]).toBeCloseTo(cells.p[0][I - 1][0], 6);
    }
  }, 120_000);
});
