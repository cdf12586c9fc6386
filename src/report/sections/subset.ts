/**
 * Section 7 and the appendix: the information-selected smaller benchmark
 * (core/bank/select.ts) at a few budgets, and how closely it ranks the LLMs
 * like the whole fit: each LLM's θ re-estimated from the subset's items alone
 * (items fixed at the fit, core/bank/estimate.ts), then Kendall's τ with the
 * fit's θ. In-sample: the LLMs also calibrated the items, so it is the
 * optimistic figure; `llm-nrm evaluate compress` gives the held-out one.
 */
import { bankFromFit } from '../../core/bank/bank';
import { estimateLlm, responseTarget, type Response } from '../../core/bank/estimate';
import { responseModel, type ResponseModel } from '../../core/bank/model';
import { selectItems, type SelectedItem } from '../../core/bank/select';
import type { Dataset } from '../../core/data/types';
import type { FitJson } from '../../core/fit/types';
import { kendall } from '../../core/stats/corr';
import { clipText } from '../caps';
import { fmt, int, numCell, section, table, textCell } from '../html';

export interface Subset {
  k: number;
  items: SelectedItem[];
  tau: number;
}

/** LLM j's observed responses on the model items `subset` (model indices). */
function responsesOn(m: ResponseModel, ds: Dataset, j: number, subset: number[]): Response[] {
  const rs: Response[] = [];
  for (const b of subset) {
    const i = b; // the bank is made from this fit of ds: item b is ds item b
    if (!ds.observed[j * ds.I + i]) continue;
    const off = (j * ds.I + i) * ds.Kmax;
    rs.push({ item: b, y: responseTarget(m, m.items[b], ds.obs.subarray(off, off + ds.Kmax)) });
  }
  return rs;
}

/** The subsets at `budgets` (each below the item count) with their rank agreement. */
export async function subsets(
  ds: Dataset,
  fit: FitJson,
  budgets: readonly number[],
  signal?: AbortSignal,
): Promise<Subset[]> {
  const bank = bankFromFit(fit, { dataFiles: [], date: '' });
  const m = responseModel(bank);
  const full = fit.llms.map((l) => l.theta);
  const ks = [...new Set(budgets)].filter((k) => k >= 2 && k < ds.I).sort((a, b) => a - b);
  const out: Subset[] = [];
  for (const k of ks) {
    const items = selectItems(bank, k);
    const idx = items.map((s) => m.index.get(s.item)!);
    const theta: number[] = [];
    for (let j = 0; j < ds.J; j++)
      theta.push((await estimateLlm(m, responsesOn(m, ds, j, idx), undefined, { signal })).theta);
    out.push({ k, items, tau: kendall(theta, full) });
  }
  return out;
}

export function subsetSection(subs: Subset[], I: number): string {
  if (subs.length === 0)
    return section(
      'subset',
      '7. A smaller benchmark',
      `The benchmark has ${int(I)} items, too few for a smaller subset at the report's budgets.`,
      '',
    );
  const tbl = table(
    'Information-selected subsets and their rank agreement with the full fit',
    [
      'items',
      'share of the benchmark',
      'mean information over θ ∈ [−2, 2]',
      'Kendall τ with the full ranking (in-sample)',
    ],
    subs.map((s) => [
      numCell(int(s.k)),
      numCell(`${fmt((100 * s.k) / I, 1)}%`),
      numCell(fmt(s.items.reduce((a, x) => a + x.info, 0) / s.k, 3)),
      numCell(fmt(s.tau, 3)),
    ]),
  );
  const best = subs[0];
  const reading = `Keeping only the ${int(best.k)} most informative of ${int(I)} items (${fmt((100 * best.k) / I, 1)}%), chosen for a typical LLM over θ from −2 to 2, ranks the LLMs with Kendall τ = ${fmt(best.tau, 2)} against the full fit${
    subs.length > 1
      ? `; ${subs
          .slice(1)
          .map((s) => `${int(s.k)} items give τ = ${fmt(s.tau, 2)}`)
          .join(', ')}`
      : ''
  }. This agreement is in-sample (the same LLMs calibrated the items), so it is an upper bound; the held-out figure is what llm-nrm evaluate compress measures. The item lists are in the appendix.`;
  return section(
    'subset',
    '7. A smaller benchmark',
    reading,
    `${tbl}\n<p>Each subset's items are listed in <a href="#appendix">the appendix</a>.</p>`,
  );
}

export function appendixSection(subs: Subset[], ds: Dataset): string {
  const index = new Map(ds.itemIds.map((id, i) => [id, i]));
  const lists = subs.map((s) =>
    table(
      `The ${int(s.k)}-item subset, most informative first`,
      ['item', 'benchmark', 'mean information', 'question'],
      s.items.map((x) => [
        textCell(x.item),
        textCell(x.benchmark),
        numCell(fmt(x.info, 3)),
        textCell(clipText(ds.itemTexts?.[index.get(x.item) ?? -1]?.question ?? '', 120)),
      ]),
    ),
  );
  return section(
    'appendix',
    'Appendix: the subsets\u2019 items',
    subs.length
      ? `The items of each subset of section 7, in the order they were chosen (most informative first).`
      : 'No subset was built.',
    lists.join('\n'),
  );
}
