/**
 * Shapes a fit and its data set into each chart's data. Pure, like derive.ts.
 */
import type { BandsData } from '../charts/bands';
import type { GateData, GatePoint } from '../charts/gate';
import type { HeatmapData } from '../charts/heatmap';
import type { IccData } from '../charts/icc';
import type { ItemInfoData } from '../charts/itemInfo';
import type { SharpnessRow } from '../charts/sharpness';
import type { ThetaRankingRow } from '../charts/thetaRanking';
import { OPTION_LABELS, type Dataset } from '../core/data/types';
import type { FitJson } from '../core/fit/types';
import {
  binaryInfoAt,
  binaryProbAt,
  dominantBands,
  iteminfo,
  margin,
  probtrace,
  thetaGrid,
} from '../core/model/itemfns';
import { isBinary } from '../core/model/types';
import { gateOf } from '../core/model/gate';
import { binaryItemOf as binaryItem, nominalItemOf } from '../core/fit/info';
import { observedProbs } from './responses';

/** The θ grid every per-item chart uses. */
export const GRID = Array.from(thetaGrid(-4, 4, 161));

const labelsFor = (K: number): string[] => OPTION_LABELS.slice(0, K);

/**
 * ICC of item i with the LLMs' θ and observed distributions. For binary models
 * the "options" are correct / incorrect, so the chart shows P(correct).
 */
export function iccData(fit: FitJson, ds: Dataset, i: number): IccData {
  const it = fit.items[i];
  const binary = isBinary(fit.model);
  const llms = fit.llms.flatMap((l, j) => {
    const p = observedProbs(ds, j, i);
    if (!p) return [];
    const probs = binary ? [p[ds.key[i]], 1 - p[ds.key[i]]] : p;
    return [{ id: l.id, theta: l.theta, probs }];
  });
  if (binary) {
    const bi = binaryItem(it);
    return {
      theta: GRID,
      traces: GRID.map((t) => {
        const P = binaryProbAt(bi, t);
        return [P, 1 - P];
      }),
      labels: ['correct', 'incorrect'],
      key: 0,
      llms,
    };
  }
  const traces = probtrace(nominalItemOf(it), GRID).map((row) => Array.from(row));
  return { theta: GRID, traces, labels: labelsFor(it.nOptions), key: ds.key[i], llms };
}

/** Information of item i over the grid, split binary / wrong (wrong = 0 for binary models). */
export function itemInfoData(fit: FitJson, i: number): ItemInfoData {
  const it = fit.items[i];
  if (isBinary(fit.model)) {
    const bi = binaryItem(it);
    return { theta: GRID, binary: GRID.map((t) => binaryInfoAt(bi, t)), wrong: GRID.map(() => 0) };
  }
  const info = iteminfo(nominalItemOf(it), GRID);
  return { theta: GRID, binary: info.map((x) => x.binary), wrong: info.map((x) => x.wrong) };
}

/** θ ranges in which each option of item i is the most likely response. */
export function bandsData(fit: FitJson, ds: Dataset, i: number): BandsData {
  const it = fit.items[i];
  return {
    bands: dominantBands(nominalItemOf(it), GRID),
    labels: labelsFor(it.nOptions),
    key: ds.key[i],
  };
}

export function rankingRows(fit: FitJson): ThetaRankingRow[] {
  return fit.llms.map((l) => ({ id: l.id, theta: l.theta, se: l.thetaSE, accuracy: l.accuracy }));
}

export function sharpnessRows(fit: FitJson): SharpnessRow[] {
  return fit.llms.map((l) => ({ id: l.id, s: l.s, se: l.sSE }));
}

/** LLM × position heatmap of δ or ρ. */
export function positionHeatmap(fit: FitJson, which: 'delta' | 'rho'): HeatmapData {
  const cols = labelsFor(fit.Kmax);
  return {
    rows: fit.llms.map((l) => l.id),
    cols,
    values: fit.llms.map((l) => cols.map((_, k) => l[which][k] ?? 0)),
    title: which === 'delta' ? 'Positional bias δ' : 'Fallback logits ρ',
    legendTitle: which === 'delta' ? 'δ (logit shift)' : 'ρ (logit)',
    rowTitle: 'LLM',
    colTitle: 'Option position',
  };
}

/** The fallback gate G = σ(w0 − κ x) at x = θ − b̃. */
export const gateAt = (w0: number, kappa: number, x: number) =>
  1 / (1 + Math.exp(-(w0 - kappa * x)));

/**
 * Gate curve with points at x = θ_j − b̃_i (eq. 10's gate) or x = f_i(θ_j) (the
 * margin gate, core/model/gate.ts) for observed cells: every cell when there are
 * at most `max`, otherwise an evenly spaced subset (deterministic).
 */
export function gateData(fit: FitJson, ds: Dataset, max = 2000): GateData {
  const { w0, kappa } = fit.global;
  const form = gateOf(fit);
  const distance = (j: number, i: number) => {
    const it = fit.items[i];
    if (form === 'eq10' || !it.a || !it.c) return fit.llms[j].theta - it.b;
    const key = OPTION_LABELS.indexOf(it.key as (typeof OPTION_LABELS)[number]);
    return margin({ a: it.a, c: it.c, key }, fit.llms[j].theta);
  };
  let n = 0;
  for (let x = 0; x < ds.observed.length; x++) n += ds.observed[x];
  const stride = Math.max(1, n / max);
  const points: GatePoint[] = [];
  let q = 0;
  let next = 0;
  for (let j = 0; j < ds.J; j++) {
    for (let i = 0; i < ds.I; i++) {
      if (!ds.observed[j * ds.I + i]) continue;
      if (q++ < next) continue;
      next += stride;
      const x = distance(j, i);
      if (Number.isFinite(x)) points.push({ x, g: gateAt(w0, kappa, x), llm: fit.llms[j].id });
    }
  }
  return { w0, kappa, form, points: points.slice(0, max) };
}
