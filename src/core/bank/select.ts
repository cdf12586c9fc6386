/**
 * Non-adaptive selection (one fixed "tiny benchmark" for every LLM) and the
 * export of chosen items as an items CSV that the loaders read back.
 */
import { writeItemsCsv } from '../data/write';
import { OPTION_LABELS, type Dataset, type ItemText } from '../data/types';
import { thetaGrid } from '../model/itemfns';
import { bankTexts, type ItemBank } from './bank';
import { neutralTerms, responseInfo, responseModel, type LlmTerms } from './model';

export interface SelectedItem {
  item: string;
  benchmark: string;
  /** Mean information over the θ range (the integral divided by its width). */
  info: number;
}

export interface SelectOptions {
  /** θ interval to integrate over (default [−2, 2]). */
  thetaRange?: [number, number];
  /** Grid points over the interval (default 41). */
  points?: number;
  /** LLM terms to evaluate information with (default the reference LLM: s = 1, δ = ρ = 0). */
  terms?: LlmTerms;
}

/**
 * The k bank items with the most information integrated over θ ∈ thetaRange,
 * under the bank's response model for a reference LLM (gate included).
 * Deterministic: ties keep bank order.
 */
export function selectItems(bank: ItemBank, k: number, opts: SelectOptions = {}): SelectedItem[] {
  const [lo, hi] = opts.thetaRange ?? [-2, 2];
  if (!(hi > lo)) throw new Error(`The θ range must have lo < hi (got [${lo}, ${hi}]).`);
  const m = responseModel(bank);
  const terms = opts.terms ?? neutralTerms(m.Kmax);
  const grid = thetaGrid(lo, hi, Math.max(2, opts.points ?? 41));
  const scored = m.items.map((it, i) => {
    // Trapezoid rule over the grid, divided by the width: the mean information.
    let s = 0;
    for (let q = 0; q < grid.length; q++) {
      const w = q === 0 || q === grid.length - 1 ? 0.5 : 1;
      s += w * responseInfo(m, it, grid[q], terms);
    }
    return { i, info: s / (grid.length - 1) };
  });
  scored.sort((x, y) => y.info - x.info || x.i - y.i);
  return scored.slice(0, Math.max(0, k)).map(({ i, info }) => ({
    item: bank.items[i].id,
    benchmark: bank.items[i].benchmark,
    info,
  }));
}

/**
 * The chosen items as an items CSV (item, benchmark, key, n_options, and
 * question/option_A.. texts when the bank or `texts` carry them), in the order
 * given: a tiny benchmark to administer to new LLMs.
 */
export function tinyBenchmarkCsv(
  bank: ItemBank,
  itemIds: string[],
  texts?: ReadonlyMap<string, ItemText | null>,
): string {
  const byId = new Map(bank.items.map((it) => [it.id, it]));
  const own = bankTexts(bank);
  const items = itemIds.map((id) => {
    const it = byId.get(id);
    if (!it) throw new Error(`Item ${id} is not in the bank.`);
    return it;
  });
  const itemTexts = items.map((it) => texts?.get(it.id) ?? own.get(it.id) ?? null);
  const nOptions = Uint8Array.from(items, (it) => it.nOptions);
  const ds: Dataset = {
    J: 0,
    I: items.length,
    Kmax: Math.max(2, ...nOptions),
    llmIds: [],
    itemIds: items.map((it) => it.id),
    benchmarks: items.map((it) => it.benchmark),
    nOptions,
    key: Uint8Array.from(items, (it) =>
      OPTION_LABELS.indexOf(it.key as (typeof OPTION_LABELS)[number]),
    ),
    obs: new Float32Array(0),
    observed: new Uint8Array(0),
    leakage: new Float32Array(0),
    ...(itemTexts.some((t) => t !== null) ? { itemTexts } : {}),
    sources: [],
    warnings: [],
  };
  return writeItemsCsv(ds);
}
