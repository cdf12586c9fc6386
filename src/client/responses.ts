/** What single LLMs answered: their wrong answers and observed distributions. */
import { OPTION_LABELS, type Dataset } from '../core/data/types';
import { answerAt, isCorrect } from '../core/model/cells';

/** One wrong answer of an LLM: the item, its key, the LLM's argmax and probabilities. */
export interface WrongResponse {
  item: number;
  id: string;
  benchmark: string;
  key: string;
  answer: string;
  probs: number[];
}

/** Items that LLM `j` answered wrongly (its most likely option is not the key). */
export function wrongResponses(ds: Dataset, j: number): WrongResponse[] {
  const out: WrongResponse[] = [];
  for (let i = 0; i < ds.I; i++) {
    const cell = j * ds.I + i;
    if (!ds.observed[cell] || isCorrect(ds, cell)) continue;
    const off = cell * ds.Kmax;
    const K = ds.nOptions[i];
    const top = answerAt(ds, cell);
    out.push({
      item: i,
      id: ds.itemIds[i],
      benchmark: ds.benchmarks[i],
      key: OPTION_LABELS[ds.key[i]],
      answer: OPTION_LABELS[top],
      probs: Array.from(ds.obs.subarray(off, off + K)),
    });
  }
  return out;
}

/** Observed distribution of cell (j, i), or null where missing. */
export function observedProbs(ds: Dataset, j: number, i: number): number[] | null {
  if (!ds.observed[j * ds.I + i]) return null;
  const off = (j * ds.I + i) * ds.Kmax;
  return Array.from(ds.obs.subarray(off, off + ds.nOptions[i]));
}
