/**
 * Test helper (not used by the app): how well a bank scores LLMs it was not
 * calibrated on. Folds over LLMs, a bank from the training LLMs, and the
 * held-out LLMs' θ from every bank item (scoreLlms) and from a short adaptive
 * test, each compared with their θ in a fit on all LLMs.
 */
import type { Dataset } from '../data/types';
import { subsetDataset } from '../data/subset';
import { fitDataset } from '../fit/fit';
import { scoreLlms } from '../fit/score';
import type { FitSettings } from '../fit/types';
import { spearman } from '../stats/corr';
import { bankAsFit, bankFromFit } from './bank';
import { CAT_DEFAULTS } from '../defaults';
import { runCat } from './cat';
import { llmFolds } from './compress';
import { responseModel } from './model';

export interface HeldOutRow {
  llm: string;
  /** θ in the fit on all LLMs (the reference). */
  thetaFull: number;
  /** θ from every bank item, the bank calibrated without this LLM. */
  thetaScore: number;
  /** θ from an adaptive test of `catItems` items on the same bank. */
  thetaCat: number;
}

export interface HeldOutResult {
  rows: HeldOutRow[];
  /** Spearman of thetaScore and thetaCat with thetaFull over all held-out LLMs. */
  spearmanScore: number;
  spearmanCat: number;
}

export async function heldOutScoring(
  ds: Dataset,
  opts: { folds?: number; catItems?: number; fitSettings?: Partial<FitSettings> } = {},
): Promise<HeldOutResult> {
  const settings = { model: 'llmnrm' as const, ...opts.fitSettings };
  const full = await fitDataset(ds, settings);
  const rows: HeldOutRow[] = [];
  for (const test of llmFolds(ds.J, opts.folds ?? 5, 1)) {
    const train = Array.from({ length: ds.J }, (_, j) => j).filter((j) => !test.includes(j));
    const bank = bankFromFit(await fitDataset(subsetDataset(ds, train), settings), {
      dataFiles: [],
    });
    const held = subsetDataset(ds, test);
    const scored = await scoreLlms(held, bankAsFit(bank));
    const m = responseModel(bank);
    for (let q = 0; q < test.length; q++) {
      const cat = await runCat(m, held, q, { maxItems: opts.catItems ?? CAT_DEFAULTS.maxItems });
      rows.push({
        llm: ds.llmIds[test[q]],
        thetaFull: full.llms[test[q]].theta,
        thetaScore: scored.llms[q].theta,
        thetaCat: cat.theta,
      });
    }
  }
  const ref = rows.map((r) => r.thetaFull);
  const rho = (key: 'thetaScore' | 'thetaCat') =>
    spearman(
      rows.map((r) => r[key]),
      ref,
    );
  return { rows, spearmanScore: rho('thetaScore'), spearmanCat: rho('thetaCat') };
}
