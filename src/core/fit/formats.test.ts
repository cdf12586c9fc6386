import { describe, expect, it } from 'vitest';
import { harnessFiles, longFiles, wideFiles, type TextFile } from '../data/test-formats';
import type { Spec } from '../data/test-spec';
import { loadDataset } from '../data/load';
import { cellsOf, harnessJsonl, harnessParquet, wideCsvLike } from '../data/test-harnessFiles';
import {
  helmState,
  inspectEval,
  lightevalParquet,
  metaParquet,
  openCompassPpl,
  type AnyFile,
} from '../data/test-results';
import { loadTexts } from '../data/test-utils';
import type { Dataset } from '../data/types';
import { simulateNominal } from '../model/simulate';
import { fitDataset } from './fit';

/** The simulated cells as a Spec, the ground truth every format is written from. */
function specOf(ds: Dataset): Spec {
  return {
    models: ds.llmIds.map((_, j) => `llm-${j}`),
    items: ds.itemIds.map((_, i) => ({
      id: `naep/${i}`,
      task: 'naep',
      doc: i,
      bench: 'naep',
      K: ds.nOptions[i],
      key: ds.key[i],
      text: { question: `Question ${i}?`, options: [] },
    })),
    cells: ds.llmIds.map((_, j) =>
      ds.itemIds.map((_, i) => {
        if (!ds.observed[j * ds.I + i]) return null;
        const off = (j * ds.I + i) * ds.Kmax;
        return Array.from(ds.obs.subarray(off, off + ds.nOptions[i]));
      }),
    ),
  };
}

const files = (fs: TextFile[]) => Object.fromEntries(fs.map((f) => [f.name, f.text]));
const wide = { nOptions: true, bench: true, allTen: false, extra: false, scale: 1, crlf: false };

describe('the same cells in any format give the same fit (issue 10: objective 1e-6 relative, θ 1e-4)', () => {
  const ds = simulateNominal({ J: 12, I: 60, seed: 21, missing: 0.05, concentration: 60 }).data;
  const spec = specOf(ds);
  const forms: Record<string, Record<string, string>> = {
    'wide, probabilities': files(wideFiles(spec, { ...wide, prefix: '', kind: 'prob' })),
    'wide, log-probabilities': files(
      wideFiles(spec, { ...wide, prefix: 'logp_', kind: 'logprob' }),
    ),
    'long, log-probabilities + items': files(
      longFiles(spec, { kind: 'logprob', shuffle: 7, texts: false, scale: 1, crlf: true }),
    ),
    'lm-evaluation-harness logs': files(
      harnessFiles(spec, {
        resps: 'strings',
        respsOnly: false,
        target: 'number',
        args: 'choices',
        crlf: false,
      }),
    ),
  };
  it('fits all four forms to one objective and one θ per LLM', async () => {
    const fits = [];
    for (const [name, texts] of Object.entries(forms)) {
      const loaded = await loadTexts(texts);
      expect(loaded.J, name).toBe(ds.J);
      expect(loaded.I, name).toBe(ds.I);
      fits.push({ name, fit: await fitDataset(loaded, { model: 'llmnrm' }) });
    }
    const ref = fits[0].fit;
    const theta = new Map(ref.llms.map((l) => [l.id, l.theta]));
    for (const { name, fit } of fits) {
      expect(fit.converged, name).toBe(true);
      expect(fit.settings.priorStrength, name).toBe(ref.settings.priorStrength);
      expect(Math.abs(fit.objective - ref.objective) / ref.objective, name).toBeLessThan(1e-6);
      for (const l of fit.llms)
        expect(Math.abs(l.theta - theta.get(l.id)!), name).toBeLessThan(1e-4);
    }
  });
});

const loadAny = (fs: AnyFile[]) =>
  loadDataset(
    fs.map((f) =>
      f.bytes
        ? { name: f.name, blob: new Blob([new Uint8Array(f.bytes)]) }
        : { name: f.name, text: f.text! },
    ),
  );

describe('results of evaluation tools give the wide CSV fit, prior strength chosen as usual (issue 13)', () => {
  // data/results.test.ts compares these readers at a fixed prior strength (their item ids
  // differ); here the reference wide CSV carries each reader's ids, so the held-out split
  // that chooses the strength is the same and the whole default fit must agree.
  const cells = cellsOf(simulateNominal({ J: 6, I: 40, K: 4, seed: 5, concentration: 60 }).data);
  const forms: Record<string, AnyFile[]> = {
    'harness samples JSONL': harnessJsonl(cells),
    'harness samples Parquet (nested columns)': harnessParquet(cells),
    'lighteval 0.7 Parquet': lightevalParquet(cells),
    'Meta eval details Parquet': metaParquet(cells),
    'Inspect .eval (Zstandard)': inspectEval(cells, 93),
    'HELM scenario_state.json': helmState(cells),
    'OpenCompass PPL with BPB': openCompassPpl(cells),
  };
  it('objective within 1e-6 relative, same prior strength, θ within 1e-4', async () => {
    for (const [name, fs] of Object.entries(forms)) {
      const ds = await loadAny(fs);
      const ref = await loadTexts({ 'ref.wide.csv': wideCsvLike(cells, ds) });
      const [fit, refFit] = [await fitDataset(ds, {}), await fitDataset(ref, {})];
      expect(fit.converged, name).toBe(true);
      expect(fit.settings.priorStrength, name).toBe(refFit.settings.priorStrength);
      expect(Math.abs(fit.objective - refFit.objective) / refFit.objective, name).toBeLessThan(
        1e-6,
      );
      const theta = new Map(refFit.llms.map((l) => [l.id, l.theta]));
      for (const l of fit.llms)
        expect(Math.abs(l.theta - theta.get(l.id)!), name).toBeLessThan(1e-4);
    }
  }, 600_000);
});
