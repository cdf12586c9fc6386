/**
 * A data set with every cell observed and the same K options on every item:
 * what simulations and tests build from a J × I × K array of probabilities.
 */
import type { Dataset } from './types';

/** The names of a complete data set's LLMs, items and benchmarks (defaults: m0…, q0…, 'sim'). */
export interface CompleteNames {
  llmIds?: string[];
  itemIds?: string[];
  benchmarks?: string[];
}

/** A complete J × I data set on `obs` (J × I × K, LLM-major) with the items' keys. */
export function completeDataset(
  obs: Float32Array,
  key: Uint8Array,
  shape: { J: number; I: number; K: number },
  names: CompleteNames = {},
): Dataset {
  const { J, I, K } = shape;
  return {
    J,
    I,
    Kmax: K,
    llmIds: names.llmIds ?? Array.from({ length: J }, (_, j) => `m${j}`),
    itemIds: names.itemIds ?? Array.from({ length: I }, (_, i) => `q${i}`),
    benchmarks: names.benchmarks ?? new Array<string>(I).fill('sim'),
    nOptions: new Uint8Array(I).fill(K),
    key,
    obs,
    observed: new Uint8Array(J * I).fill(1),
    leakage: new Float32Array(J * I),
    sources: [],
    warnings: [],
  };
}
