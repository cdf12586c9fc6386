/**
 * What a loaded data set says about each item before any fit: the share of
 * LLMs whose top option is the key, and each option's share of the LLMs'
 * top choices. Computed in the worker with the load summary, so the items
 * can be listed the moment a file is read.
 */
import { answerAt } from '../model/cells.ts';
import type { Dataset } from './types.ts';

/** Per-item observed statistics; plain arrays so it persists and crosses the worker boundary. */
export interface ItemPreview {
  /** Share of observed LLMs whose argmax is the key, per item (NaN with none observed). */
  accuracy: number[];
  /** Share of observed LLMs whose argmax is each option, per item, in label order. */
  choice: number[][];
  /** LLMs observed per item. */
  n: number[];
}

/** One pass over the cells: O(J · I · Kmax). */
export function itemPreview(ds: Dataset): ItemPreview {
  const { J, I } = ds;
  const accuracy: number[] = new Array(I);
  const choice: number[][] = new Array(I);
  const n: number[] = new Array(I);
  for (let i = 0; i < I; i++) {
    const K = ds.nOptions[i];
    const picks = new Array<number>(K).fill(0);
    let m = 0;
    for (let j = 0; j < J; j++) {
      if (!ds.observed[j * I + i]) continue;
      picks[answerAt(ds, j * I + i)]++;
      m++;
    }
    n[i] = m;
    accuracy[i] = m ? picks[ds.key[i]] / m : NaN;
    choice[i] = picks.map((c) => (m ? c / m : NaN));
  }
  return { accuracy, choice, n };
}
