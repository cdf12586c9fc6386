/**
 * How well a bank scores LLMs it was not calibrated on: folds over LLMs, a
 * bank from the training LLMs, and the held-out LLMs' θ from every bank item
 * (scoreLlms) and from a short adaptive test, each compared with their θ in a
 * fit on all LLMs.
 */
import type { Dataset } from '../data/types';
import { subsetDataset } from '../data/subset';
import { fitDataset, type EngineHandle } from '../fit/fit';
import { scoreLlms } from '../fit/score';
import type { FitSettings } from '../fit/types';
import { spearman } from '../stats/corr';
import { bankAsFit, bankFromFit } from './bank';
import { runCat } from './cat';
import { llmFolds } from './compress';
import { responseModel } from './model';

export interface HeldOutRow {
  llm: string;
  fold: number;
  /** θ in the fit on all LLMs (the reference). */
  thetaFull: number;
  /** θ from every bank item, the bank calibrated without this LLM. */
  thetaScore: number;
  /** θ from an adaptive test of `catItems` items on the same bank. */
  thetaCat: number;
  seCat: number;
}

export interface HeldOutResult {
  rows: HeldOutRow[];
  /** Spearman of thetaScore and thetaCat with thetaFull over all held-out LLMs. */
  spearmanScore: number;
  spearmanCat: number;
  /** The same per fold, then averaged (folds of a few LLMs give coarse values). */
  perFold: { fold: number; spearmanScore: number; spearmanCat: number; llms: number }[];
}

export interface HeldOutOptions {
  folds?: number;
  seed?: number;
  catItems?: number;
  fitSettings?: Partial<FitSettings>;
  engine?: EngineHandle;
  signal?: AbortSignal;
  onProgress?: (stage: string) => void;
}

export async function heldOutScoring(
  ds: Dataset,
  opts: HeldOutOptions = {},
): Promise<HeldOutResult> {
  const settings = { model: 'llmnrm' as const, ...opts.fitSettings };
  const fitOpts = { engine: opts.engine, signal: opts.signal };
  opts.onProgress?.('fit on all LLMs');
  const full = await fitDataset(ds, settings, fitOpts);
  const folds = llmFolds(ds.J, opts.folds ?? 5, opts.seed ?? 1);
  const rows: HeldOutRow[] = [];
  const perFold: HeldOutResult['perFold'] = [];
  for (let f = 0; f < folds.length; f++) {
    const test = folds[f];
    const train = Array.from({ length: ds.J }, (_, j) => j).filter((j) => !test.includes(j));
    opts.onProgress?.(`fold ${f + 1}/${folds.length}: calibrating`);
    const bank = bankFromFit(await fitDataset(subsetDataset(ds, train), settings, fitOpts), {
      dataFiles: [],
    });
    const held = subsetDataset(ds, test);
    const scored = await scoreLlms(held, bankAsFit(bank), { signal: opts.signal });
    const m = responseModel(bank);
    const foldRows: HeldOutRow[] = [];
    for (let q = 0; q < test.length; q++) {
      const cat = await runCat(m, held, q, { maxItems: opts.catItems ?? 41, signal: opts.signal });
      foldRows.push({
        llm: ds.llmIds[test[q]],
        fold: f,
        thetaFull: full.llms[test[q]].theta,
        thetaScore: scored.llms[q].theta,
        thetaCat: cat.theta,
        seCat: cat.se,
      });
    }
    rows.push(...foldRows);
    const ref = foldRows.map((r) => r.thetaFull);
    perFold.push({
      fold: f,
      spearmanScore: spearman(
        foldRows.map((r) => r.thetaScore),
        ref,
      ),
      spearmanCat: spearman(
        foldRows.map((r) => r.thetaCat),
        ref,
      ),
      llms: test.length,
    });
  }
  const ref = rows.map((r) => r.thetaFull);
  return {
    rows,
    spearmanScore: spearman(
      rows.map((r) => r.thetaScore),
      ref,
    ),
    spearmanCat: spearman(
      rows.map((r) => r.thetaCat),
      ref,
    ),
    perFold,
  };
}
