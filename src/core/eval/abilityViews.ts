/**
 * The LLM view's abilities (issue 31, "θ a user can believe"): per LLM, θ from
 * all options (the fit's), θ from correctness only and θ from wrong answers
 * only (each rescored against the fit's own items with scoreLlms, as the
 * wrong-answers evaluation does for held-out LLMs), its person fit, and
 * where θ and accuracy disagree most, with one sentence on why, worded from
 * the numbers behind it (sharpness, the two partial θs, mean P(key)).
 */
import type { Dataset } from '../data/types';
import { scoreLlms } from '../fit/score';
import type { FitJson } from '../fit/types';
import { isBinary } from '../model/types';
import { predictorFromFit } from './predict';
import { personFit, type FitFlag } from '../psych/itemfit';
import { isCorrect } from '../model/cells';
import { ranks, spearman } from '../stats/corr';

export interface LlmAbilityRow {
  llm: string;
  /** θ from all options: the fit's own. */
  theta: number;
  thetaSE: number;
  /** Share of observed items whose argmax is the key. */
  accuracy: number;
  /** Mean observed probability of the key. */
  meanPKey: number;
  /**
   * The model's expected accuracy: mean fitted P(key) over the LLM's observed
   * items, with its s, δ and ρ folded in (the "true score" on these items).
   * On real data it ranks LLMs by held-out accuracy better than θ does
   * (docs/validity.md).
   */
  expectedAccuracy: number;
  /** Sharpness (1 for models without it). */
  s: number;
  /** θ from correctness only, against the fit's items (the fit's θ for binary models). */
  thetaCorrectness: number;
  /** θ from the distractors of wrong answers only (NaN for binary models or no wrong answer). */
  thetaWrong: number;
  /** Items answered wrongly. */
  nWrong: number;
  /** Person fit (infit/outfit mean squares) and its flag. */
  infit: number;
  outfit: number;
  fitFlag: FitFlag;
  /** Rank by θ and by accuracy, 1 = best (ties share the average rank). */
  rankTheta: number;
  rankAccuracy: number;
  /** rankTheta − rankAccuracy: > 0 when θ places the LLM lower than its accuracy does. */
  rankGap: number;
  /** One sentence on the disagreement, for the marked LLMs. */
  explanation?: string;
}

export interface LlmAbilityViews {
  model: string;
  rows: LlmAbilityRow[];
  /** The LLMs whose θ and accuracy ranks differ most (|gap| ≥ minGap), largest first. */
  marked: string[];
  /** Spearman of θ with accuracy, and of θ with each partial θ. */
  spearman: { thetaAccuracy: number; correctnessTheta: number; wrongTheta: number };
}

export interface AbilityViewOptions {
  signal?: AbortSignal;
  /** At most this many LLMs are marked (default 3). */
  maxMarked?: number;
  /** A rank difference must be at least this to be marked (default 3). */
  minGap?: number;
}

/** Ranks with 1 = largest (ties averaged). */
function descRanks(x: ArrayLike<number>): number[] {
  const r = ranks(x);
  return Array.from(r, (v) => x.length + 1 - v);
}

const pct = (x: number) => `${Math.round(100 * x)}%`;
const num = (x: number, d = 2) => (Number.isFinite(x) ? x.toFixed(d).replace('-', '−') : '—');
const ordinal = (n: number) => {
  const r = Math.round(n);
  const t = r % 100;
  if (t >= 11 && t <= 13) return `${r}th`;
  return `${r}${({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[r % 10] ?? 'th'}`;
};

/** |log s| from which sharpness is named as the reason (s ≥ 1.22 or ≤ 0.82). */
const SHARP_LOG = 0.2;

/** The s-rank phrase: "the highest", "the 2nd highest", "the lowest". */
function sPlace(rank: number, J: number, high: boolean): string {
  const k = high ? rank : J + 1 - rank;
  const word = high ? 'highest' : 'lowest';
  return k <= 1 ? `the ${word}` : `the ${ordinal(k)} ${word}`;
}

/**
 * One sentence on why θ and accuracy rank an LLM differently, from the
 * quantities that move θ: its sharpness s (a large s lets the fit explain
 * confident answers with a low θ, a small s flat ones with a high θ), its θ
 * from correctness and from wrong answers alone, and its mean P(key).
 */
export function explainGap(row: LlmAbilityRow, all: LlmAbilityRow[], sharpness: boolean): string {
  const J = all.length;
  const sRank = descRanks(all.map((r) => r.s))[all.indexOf(row)];
  const third = Math.max(1, Math.ceil(J / 3));
  const head = `${row.llm}: ${pct(row.accuracy)} correct (${ordinal(row.rankAccuracy)} of ${J})`;
  const cor = Number.isFinite(row.thetaCorrectness)
    ? ` θ from correctness alone is ${num(row.thetaCorrectness)}`
    : '';
  const wrong = Number.isFinite(row.thetaWrong)
    ? `θ from its ${row.nWrong} wrong answers alone is ${num(row.thetaWrong)}`
    : '';
  if (row.rankGap > 0) {
    const lead = `${head} but θ = ${num(row.theta)} ranks it ${ordinal(row.rankTheta)}`;
    if (sharpness && sRank <= third && Math.log(row.s) >= SHARP_LOG)
      return (
        `${lead}, because its sharpness s = ${num(row.s)} is ${sPlace(sRank, J, true)}: ` +
        `the fit explains its confident answers, right and wrong, by a large s and a low θ` +
        `${cor ? ` (${cor.trim()})` : ''}.`
      );
    if (wrong && row.thetaWrong < row.theta)
      return `${lead}, because its wrong answers pick the distractors weaker LLMs pick (${wrong}).`;
    return (
      `${lead}: its option preferences resemble weaker LLMs' (mean P(key) ${num(row.meanPKey)}` +
      `${cor ? `;${cor}` : ''}).`
    );
  }
  const lead = `${head} but θ = ${num(row.theta)} ranks it ${ordinal(row.rankTheta)}`;
  if (sharpness && sRank > J - third && Math.log(row.s) <= -SHARP_LOG)
    return (
      `${lead}, because its sharpness s = ${num(row.s)} is ${sPlace(sRank, J, false)}: ` +
      `its distributions are flat, and s scales all that θ does to them, so its answers pin θ ` +
      `only weakly and θ stays nearer the middle` +
      `${cor ? ` (${cor.trim()})` : ''}.`
    );
  if (wrong && row.thetaWrong > row.theta)
    return `${lead}, because its wrong answers pick the distractors stronger LLMs pick (${wrong}).`;
  return (
    `${lead}: its option preferences resemble stronger LLMs' (mean P(key) ${num(row.meanPKey)}` +
    `${cor ? `;${cor}` : ''}).`
  );
}

/** The LLM view's abilities of `fit` on its data set `ds` (see the file comment). */
export async function llmAbilityViews(
  fit: FitJson,
  ds: Dataset,
  opts: AbilityViewOptions = {},
): Promise<LlmAbilityViews> {
  const byId = new Map(fit.llms.map((l) => [l.id, l]));
  const llms = ds.llmIds.map((id) => {
    const l = byId.get(id);
    if (!l) throw new Error(`The fit has no LLM "${id}".`);
    return l;
  });
  const binary = isBinary(fit.model);
  const nWrong = new Array<number>(ds.J).fill(0);
  const pKey = new Array<number>(ds.J).fill(0);
  for (let j = 0; j < ds.J; j++) {
    let n = 0;
    for (let i = 0; i < ds.I; i++) {
      const cell = j * ds.I + i;
      if (!ds.observed[cell]) continue;
      n++;
      pKey[j] += ds.obs[cell * ds.Kmax + ds.key[i]];
      if (!isCorrect(ds, cell)) nWrong[j]++;
    }
    pKey[j] = n ? pKey[j] / n : NaN;
  }
  const pred = predictorFromFit(fit, ds);
  const expected = ds.llmIds.map((_, j) => {
    let s = 0;
    let n = 0;
    for (let i = 0; i < ds.I; i++) {
      if (!ds.observed[j * ds.I + i]) continue;
      s += pred.pKey(j, i);
      n++;
    }
    return n ? s / n : NaN;
  });
  const thetaCorrectness = binary
    ? llms.map((l) => l.theta)
    : (await scoreLlms(ds, fit, { channel: 'binary', signal: opts.signal })).llms.map(
        (l) => l.theta,
      );
  const thetaWrong = binary
    ? llms.map(() => NaN)
    : (await scoreLlms(ds, fit, { channel: 'wrong', signal: opts.signal })).llms.map((l, j) =>
        nWrong[j] > 0 ? l.theta : NaN,
      );
  const pf = new Map(personFit(fit, ds).map((r) => [r.llm, r]));
  const theta = llms.map((l) => l.theta);
  const accuracy = llms.map((l) => l.accuracy);
  const rt = descRanks(theta);
  const ra = descRanks(accuracy);
  const rows: LlmAbilityRow[] = llms.map((l, j) => {
    const p = pf.get(l.id);
    return {
      llm: l.id,
      theta: l.theta,
      thetaSE: l.thetaSE,
      accuracy: l.accuracy,
      meanPKey: pKey[j],
      expectedAccuracy: expected[j],
      s: l.s,
      thetaCorrectness: thetaCorrectness[j],
      thetaWrong: thetaWrong[j],
      nWrong: nWrong[j],
      infit: p?.infit ?? NaN,
      outfit: p?.outfit ?? NaN,
      fitFlag: p?.flag ?? '',
      rankTheta: rt[j],
      rankAccuracy: ra[j],
      rankGap: rt[j] - ra[j],
    };
  });
  const minGap = opts.minGap ?? 3;
  const order = rows
    .map((r, j) => ({ r, j }))
    .filter(({ r }) => Math.abs(r.rankGap) >= minGap)
    .sort((a, b) => Math.abs(b.r.rankGap) - Math.abs(a.r.rankGap) || a.j - b.j)
    .slice(0, opts.maxMarked ?? 3);
  const sharp = !binary && llms.some((l) => l.s !== 1);
  for (const { r } of order) r.explanation = explainGap(r, rows, sharp);
  const finitePairs = (a: number[], b: number[]) => {
    const k = a.flatMap((v, j) => (Number.isFinite(v) && Number.isFinite(b[j]) ? [j] : []));
    return k.length >= 3
      ? spearman(
          k.map((j) => a[j]),
          k.map((j) => b[j]),
        )
      : NaN;
  };
  return {
    model: fit.model,
    rows,
    marked: order.map(({ r }) => r.llm),
    spearman: {
      thetaAccuracy: finitePairs(theta, accuracy),
      correctnessTheta: binary ? NaN : finitePairs(thetaCorrectness, theta),
      wrongTheta: finitePairs(thetaWrong, theta),
    },
  };
}
