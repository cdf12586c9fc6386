import { describe, expect, it } from 'vitest';
import { fitDataset } from '../fit/fit.ts';
import { simulateNominal } from '../model/simulate.ts';
import { loadDataset } from './load.ts';
import {
  helmState,
  inspectEval,
  inspectJson,
  lightevalParquet,
  metaParquet,
  openCompassPpl,
  wideCsv,
  type AnyFile,
} from '../../../test/support/data/results.ts';
import { cellsOf } from '../../../test/support/data/harnessFiles.ts';
import { expectDataError } from '../../../test/support/data/utils.ts';

const load = (fs: AnyFile[]) =>
  loadDataset(
    fs.map((f) =>
      f.bytes
        ? { name: f.name, blob: new Blob([new Uint8Array(f.bytes)]) }
        : { name: f.name, text: f.text! },
    ),
  );

describe('results from evaluation tools (issue 13): the same cells give the same fit', () => {
  const sim = simulateNominal({ J: 6, I: 40, K: 4, seed: 5, concentration: 60 }).data;
  const cells = cellsOf(sim);
  const forms: Record<string, AnyFile[]> = {
    'lighteval 0.7 Parquet': lightevalParquet(cells),
    'Meta eval details Parquet': metaParquet(cells),
    'Inspect .eval (DEFLATE)': inspectEval(cells, 8),
    'Inspect .eval (Zstandard, method 93)': inspectEval(cells, 93),
    'Inspect .json': inspectJson(cells),
    'HELM scenario_state.json (separate)': helmState(cells),
    'OpenCompass PPL with BPB': openCompassPpl(cells),
  };

  it('loads each format to the wide CSV cells and fits to its objective (1e-6 relative)', async () => {
    const ref = await load([wideCsv(cells)]);
    const refFit = await fitDataset(ref, {});
    const strength = refFit.settings.priorStrength;
    for (const [name, files] of Object.entries(forms)) {
      const ds = await load(files);
      expect(ds.J, name).toBe(ref.J);
      expect(ds.I, name).toBe(ref.I);
      expect(
        ds.benchmarks.every((b) => b === 'naep'),
        name,
      ).toBe(true);
      expect(
        ds.warnings.some((w) => /took \d+ records/.test(w.message)),
        name,
      ).toBe(true);
      // Item ids differ by format (lighteval has none), so the prior strength is fixed.
      const fit = await fitDataset(ds, { priorStrength: strength });
      expect(Math.abs(fit.objective - refFit.objective) / refFit.objective, name).toBeLessThan(
        1e-6,
      );
    }
  }, 600_000);

  it('says what it assumed when OpenCompass PPL has no BPB or token count', async () => {
    const f = openCompassPpl(cells)[0];
    const text = JSON.stringify(JSON.parse(f.text!), (k, v) => (k === 'BPB' ? undefined : v));
    const ds = await load([{ ...f, text }]);
    expect(ds.sources[0].valueKindReason).toMatch(/ASSUMED = prompt UTF-8 bytes \/ 4/);
  });

  it('says where a record is wrong: file, record and field', async () => {
    const bad = lightevalParquet({ ...cells, models: ['m'] })[0];
    const text = inspectJson(cells)[0].text!.replace('"target": "', '"target": "Z');
    await expectDataError(load([{ name: 'log.json', text }]), {
      file: 'log.json',
      column: 'target',
      message: /record 1: target Z.* is not an option letter/,
    });
    const helm = helmState(cells)[0];
    await expectDataError(
      load([{ ...helm, text: helm.text!.replace('"reference_index": 1', '"reference_index": 9') }]),
      { column: 'reference_index', message: /record 2: no reference 9/ },
    );
    expect((await load([bad])).llmIds).toEqual(['m']);
  });
});
