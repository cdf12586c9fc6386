/**
 * Reliability of θ, overall and per benchmark, beside Cronbach's α on binary
 * correctness.
 *
 * - empirical: var(θ̂) / (var(θ̂) + mean SE²) over the fitted LLMs (mirt's
 *   empirical_rxx). Overall it uses the fit's thetaSE; per benchmark the SE is
 *   1/√I_b(θ̂_j) from that benchmark's test information, i.e. how well the
 *   benchmark alone would place the LLMs the full fit placed.
 * - marginal: σ² / (σ² + E[1/I(θ)]) with θ ~ N(0, 1) (σ² = 1, the default
 *   fit's standardised scale; Green et al., 1984, as in mirt's marginal_rxx).
 * Test information is the sum of item information: the nominal component's
 * full option information Σp_k(a_k − ā)² for option-level models (a typical
 * LLM: s = 1, no position bias, gate closed), the binary item's for binary models.
 */
import type { Dataset } from '../data/types';
import { binaryItemOf, nominalItemOf } from '../fit/info';
import type { FitJson } from '../fit/types';
import { binaryInfoAt, iteminfoAt } from '../model/itemfns';
import { isBinary } from '../model/types';
import { correctnessMatrix, cronbachAlpha } from './correctness';
import { meanVar } from './stats';

export interface ReliabilityRow {
  /** 'all' or a benchmark name. */
  benchmark: string;
  items: number;
  empirical: number;
  marginal: number;
  /** Cronbach's α on correctness (NaN without data or complete LLMs). */
  alpha: number;
  /** LLMs observed on every item of the row (α's sample). */
  alphaN: number;
}

export const RELIABILITY_COLUMNS = [
  'benchmark',
  'items',
  'empirical',
  'marginal',
  'alpha',
  'alphaN',
] as const;

/** Test information of the fit's items `items` at θ. */
export function testInfoAt(fit: FitJson, items: number[], theta: number): number {
  const binary = isBinary(fit.model);
  let s = 0;
  for (const i of items) {
    const it = fit.items[i];
    s += binary
      ? binaryInfoAt(binaryItemOf(it), theta)
      : iteminfoAt(nominalItemOf(it), theta).total;
  }
  return s;
}

/** σ² / (σ² + E[1/I(θ)]) over θ ~ N(0, 1) (121-point grid on ±6). */
export function marginalReliability(fit: FitJson, items: number[]): number {
  let num = 0;
  let den = 0;
  for (let q = 0; q <= 120; q++) {
    const t = -6 + q / 10;
    const w = Math.exp(-0.5 * t * t);
    num += w / Math.max(testInfoAt(fit, items, t), 1e-10);
    den += w;
  }
  return 1 / (1 + num / den);
}

function empirical(theta: number[], se2: number[]): number {
  const { variance } = meanVar(theta);
  const m = meanVar(se2).mean;
  return variance / (variance + m);
}

/** Reliability rows: 'all' first, then each benchmark in order of first appearance. */
export function reliability(fit: FitJson, ds?: Dataset): ReliabilityRow[] {
  const theta = fit.llms.map((l) => l.theta);
  const groups = new Map<string, number[]>([['all', fit.items.map((_, i) => i)]]);
  fit.items.forEach((it, i) => {
    const g = groups.get(it.benchmark) ?? [];
    g.push(i);
    groups.set(it.benchmark, g);
  });
  if (groups.size === 2) groups.delete([...groups.keys()][1]);
  const y = ds ? correctnessMatrix(ds) : null;
  const byId = ds ? new Map(ds.itemIds.map((id, i) => [id, i])) : null;
  return [...groups].map(([benchmark, items]) => {
    const se2 =
      benchmark === 'all' && fit.llms.every((l) => Number.isFinite(l.thetaSE) && l.thetaSE > 0)
        ? fit.llms.map((l) => l.thetaSE ** 2)
        : theta.map((t) => 1 / Math.max(testInfoAt(fit, items, t), 1e-10));
    const cols = byId
      ? items.map((i) => byId.get(fit.items[i].id)).filter((i) => i !== undefined)
      : [];
    const a = y && ds ? cronbachAlpha(y, ds.J, ds.I, cols) : { alpha: NaN, n: 0 };
    return {
      benchmark,
      items: items.length,
      empirical: empirical(theta, se2),
      marginal: marginalReliability(fit, items),
      alpha: a.alpha,
      alphaN: a.n,
    };
  });
}
