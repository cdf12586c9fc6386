/** Selecting LLMs and items from a Dataset (cross-validation folds, filters). */
import type { Dataset } from './types.ts';

function indices(sel: ArrayLike<number> | undefined, n: number, what: string): number[] {
  if (!sel) return Array.from({ length: n }, (_, i) => i);
  const out = Array.from(sel);
  for (const x of out)
    if (!Number.isInteger(x) || x < 0 || x >= n)
      throw new RangeError(`${what} index ${x} out of 0..${n - 1}`);
  return out;
}

/**
 * A new Dataset with the given LLMs and items, in the order given (all when
 * omitted). Kmax shrinks to the largest option count among the kept items.
 * Sources and warnings are carried over unchanged.
 */
export function subsetDataset(
  ds: Dataset,
  llmIdx?: ArrayLike<number>,
  itemIdx?: ArrayLike<number>,
): Dataset {
  const js = indices(llmIdx, ds.J, 'LLM');
  const is = indices(itemIdx, ds.I, 'item');
  const J = js.length;
  const I = is.length;
  const nOptions = Uint8Array.from(is, (i) => ds.nOptions[i]);
  const Kmax = nOptions.reduce((m, k) => Math.max(m, k), 2);
  const obs = new Float32Array(J * I * Kmax);
  const observed = new Uint8Array(J * I);
  const leakage = new Float32Array(J * I);
  js.forEach((j, a) => {
    is.forEach((i, b) => {
      const src = j * ds.I + i;
      const dst = a * I + b;
      observed[dst] = ds.observed[src];
      leakage[dst] = ds.leakage[src];
      obs.set(ds.obs.subarray(src * ds.Kmax, src * ds.Kmax + nOptions[b]), dst * Kmax);
    });
  });
  return {
    J,
    I,
    Kmax,
    llmIds: js.map((j) => ds.llmIds[j]),
    itemIds: is.map((i) => ds.itemIds[i]),
    benchmarks: is.map((i) => ds.benchmarks[i]),
    nOptions,
    key: Uint8Array.from(is, (i) => ds.key[i]),
    obs,
    observed,
    leakage,
    ...(ds.itemTexts ? { itemTexts: is.map((i) => ds.itemTexts![i]) } : {}),
    ...(ds.subtasks ? { subtasks: is.map((i) => ds.subtasks![i]) } : {}),
    sources: ds.sources,
    warnings: ds.warnings,
  };
}
