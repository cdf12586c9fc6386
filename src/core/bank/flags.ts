/**
 * Item quality flags from a fit (and, when given, the data it was fitted to):
 * each flag names the item, says what may be wrong in plain language, and
 * shows the numbers behind it.
 */
import { argmaxAt, saturatedOption } from '../model/cells';
import { OPTION_LABELS, type Dataset } from '../data/types';
import { nominalItemOf } from '../fit/info';
import type { FitJson, ItemResult } from '../fit/types';
import { informativeDistractors, probsAt } from '../model/itemfns';
import { isBinary } from '../model/types';
import { FLAG_DEFAULTS } from '../defaults';
import { bankFromFit } from './bank';
import { responseModel, responseProbs } from './model';

export type FlagKind =
  | 'possibly-mis-keyed'
  | 'non-discriminating'
  | 'saturated'
  | 'no-informative-distractor'
  | 'duplicate-pattern';

export interface ItemFlag {
  item: string;
  benchmark: string;
  key: string;
  flag: FlagKind;
  /** The option the flag is about (the suspected key, the saturating option), '' when none. */
  option: string;
  reason: string;
  evidence: string;
}

/** The columns of a flags CSV, in order (`llm-nrm flags` and the Items view's export). */
export const FLAG_COLUMNS: (keyof ItemFlag)[] = [
  'item',
  'benchmark',
  'key',
  'flag',
  'option',
  'reason',
  'evidence',
];

export interface FlagOptions {
  /**
   * Mis-keyed: a distractor's discrimination must exceed the key's by more
   * than this (θ units of the fit: sd 1 over the calibration LLMs), and its
   * curve must overtake the key's by θ_hi. Tuned on simulated data (60 LLMs ×
   * 300 items, 5% of keys swapped to a random distractor, seeds 11–13 and
   * 21–24): 0.22 flags 93.3% of swapped and 4.3% of intact items (0.2: 93.3%
   * and 4.4%; 0.25: 90.5% and 3.7%). Swaps between two options of near-equal
   * discrimination are missed; intact items whose strongest distractor truly
   * out-discriminates the key (~8% in that simulation) are what gets flagged.
   */
  miskeyGap?: number;
  /** Mis-keyed: the distractor must be more likely than the key at θ_hi = max(this, the top LLMs' θ). Default 4. */
  thetaHigh?: number;
  /** Share of the LLMs counted as the top ones (default 0.1). */
  topShare?: number;
  /** Non-discriminating: mean of a_key − ā(θ) over the LLMs' θ at or below this (default 0). */
  minKeySlope?: number;
  /** Saturated: every LLM puts more than this on one option (default 0.95). */
  saturation?: number;
  /** Duplicates: identical argmax patterns need at least this many LLMs in common (default 10). */
  minDuplicateLlms?: number;
  /**
   * Duplicates: and at least this many LLMs off the pattern's most common
   * option (default 3). Patterns that are all key but for one or two LLMs
   * coincide by chance on any easy benchmark.
   */
  minDuplicateMinority?: number;
}

const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : String(x));
const label = (k: number) => OPTION_LABELS[k] ?? '?';

/** Mean θ of the top `share` of the LLMs (at least one). */
function topTheta(thetas: number[], share: number): number {
  const s = [...thetas].sort((a, b) => b - a);
  const n = Math.max(1, Math.round(share * s.length));
  return s.slice(0, n).reduce((a, b) => a + b, 0) / n;
}

function nominalFlagsOf(
  it: ItemResult,
  thetas: number[],
  thetaHi: number,
  o: Required<FlagOptions>,
): ItemFlag[] {
  const out: ItemFlag[] = [];
  const base = { item: it.id, benchmark: it.benchmark, key: it.key };
  const ni = nominalItemOf(it);
  const g = ni.key;
  const a = it.a!;
  const c = it.c!;
  // Mis-keyed: the most discriminating distractor beats the key by a margin and overtakes it by θ_hi.
  let d = -1;
  for (let k = 0; k < it.nOptions; k++) if (k !== g && (d < 0 || a[k] > a[d])) d = k;
  const gap = a[d] - a[g];
  const logOdds = gap * thetaHi + (c[d] - c[g]);
  if (gap > o.miskeyGap && logOdds > 0)
    out.push({
      ...base,
      flag: 'possibly-mis-keyed',
      option: label(d),
      reason: `Option ${label(d)} rises with ability faster than the key ${it.key} and overtakes it among the strongest LLMs: ${label(d)} may be the right answer.`,
      evidence: `a_${label(d)} = ${f2(a[d])} vs a_key = ${f2(a[g])}; p_${label(d)} > p_key above θ = ${f2(-(c[d] - c[g]) / gap)}`,
    });
  // Non-discriminating: on average over the LLMs' θ the key's curve does not rise.
  const p = new Float64Array(it.nOptions);
  let slope = 0;
  for (const t of thetas) {
    probsAt(ni, t, p);
    let abar = 0;
    for (let k = 0; k < it.nOptions; k++) abar += p[k] * a[k];
    slope += (a[g] - abar) / thetas.length;
  }
  if (slope <= o.minKeySlope)
    out.push({
      ...base,
      flag: 'non-discriminating',
      option: '',
      reason: `The key ${it.key} is not chosen more often by stronger LLMs: the item does not separate LLMs by ability.`,
      evidence: `mean a_key − ā(θ) over the LLMs' θ (${f2(Math.min(...thetas))}…${f2(Math.max(...thetas))}): ${f2(slope)}`,
    });
  if (informativeDistractors(ni).length === 0)
    out.push({
      ...base,
      flag: 'no-informative-distractor',
      option: '',
      reason:
        'No wrong option is ever the most likely answer (θ in −4…4): which wrong answer an LLM picks says little about its ability.',
      evidence: `a = [${a.map(f2).join(', ')}], c = [${c.map(f2).join(', ')}]`,
    });
  return out;
}

/** Saturation from the data: every observed LLM puts more than `level` on one option. */
function saturationFlag(it: ItemResult, ds: Dataset, i: number, level: number): ItemFlag | null {
  const sat = saturatedOption(ds, i, level);
  if (!sat) return null;
  const { option: opt, llms: n, min } = sat;
  const onKey = opt === ds.key[i];
  return {
    item: it.id,
    benchmark: it.benchmark,
    key: it.key,
    flag: 'saturated',
    option: label(opt),
    reason: onKey
      ? 'Every LLM is all but certain of the key: the item cannot tell LLMs apart.'
      : `Every LLM is all but certain of option ${label(opt)}, not the key ${it.key}: check the key.`,
    evidence: `${n} LLMs, smallest probability on ${label(opt)}: ${f2(min)}`,
  };
}

/** Saturation without data: the fitted model gives every calibration LLM more than `level` on one option. */
function modelSaturationFlags(fit: FitJson, level: number): ItemFlag[] {
  if (fit.llms.length === 0) return [];
  const m = responseModel(bankFromFit(fit, { dataFiles: [] }));
  const out: ItemFlag[] = [];
  m.items.forEach((mi, i) => {
    let opt = -1;
    let min = 1;
    for (const l of fit.llms) {
      const p = responseProbs(m, mi, l.theta, l);
      const top = argmaxAt(p, 0, p.length);
      if (p[top] <= level || (opt >= 0 && top !== opt)) return;
      opt = top;
      min = Math.min(min, p[top]);
    }
    // Binary models give [P(wrong), P(right)]: only saturation on the key is meaningful.
    const onKey = mi.bin ? opt === 1 : opt === mi.key;
    if (mi.bin && !onKey) return;
    const it = fit.items[i];
    out.push({
      item: it.id,
      benchmark: it.benchmark,
      key: it.key,
      flag: 'saturated',
      option: mi.bin ? it.key : label(opt),
      reason: onKey
        ? 'The model gives every calibration LLM near certainty on the key: the item cannot tell LLMs apart.'
        : `The model gives every calibration LLM near certainty on option ${label(opt)}, not the key ${it.key}: check the key.`,
      evidence: `model-predicted, ${fit.llms.length} LLMs, smallest probability: ${f2(min)}`,
    });
  });
  return out;
}

/** Items on which every LLM gives the same argmax answer, with enough LLMs off the majority answer. */
function duplicateFlags(
  fit: FitJson,
  ds: Dataset,
  minLlms: number,
  minMinority: number,
): ItemFlag[] {
  const groups = new Map<string, number[]>();
  for (let i = 0; i < ds.I; i++) {
    const pat: string[] = [];
    let seen = 0;
    const counts = new Array<number>(ds.nOptions[i]).fill(0);
    for (let j = 0; j < ds.J; j++) {
      if (!ds.observed[j * ds.I + i]) {
        pat.push('.');
        continue;
      }
      const top = argmaxAt(ds.obs, (j * ds.I + i) * ds.Kmax, ds.nOptions[i]);
      pat.push(label(top));
      counts[top]++;
      seen++;
    }
    if (seen < minLlms || seen - Math.max(...counts) < minMinority) continue;
    const key = pat.join('');
    groups.set(key, [...(groups.get(key) ?? []), i]);
  }
  const byId = new Map(fit.items.map((it) => [it.id, it]));
  const out: ItemFlag[] = [];
  for (const [pat, members] of groups) {
    if (members.length < 2) continue;
    for (const i of members) {
      const it = byId.get(ds.itemIds[i]);
      if (!it) continue;
      const others = members.filter((x) => x !== i).map((x) => ds.itemIds[x]);
      out.push({
        item: it.id,
        benchmark: it.benchmark,
        key: it.key,
        flag: 'duplicate-pattern',
        option: '',
        reason: `Every LLM picks the same options here as on ${others.join(', ')}: possibly a duplicated or leaked item.`,
        evidence: `argmax pattern over ${pat.replace(/\./g, '').length} LLMs: ${pat}`,
      });
    }
  }
  return out;
}

/**
 * Flag items of a fit. Parameter-based flags (mis-keyed, non-discriminating,
 * no informative distractor) need a nominal model; saturation and duplicate
 * patterns read the data (items matched by id) when given; without it,
 * saturation is judged from the model's predictions for the calibration LLMs.
 * Binary models are flagged as
 * non-discriminating when their slope is ≤ 0.
 */
export function flagItems(fit: FitJson, ds?: Dataset, opts: FlagOptions = {}): ItemFlag[] {
  const o: Required<FlagOptions> = { ...FLAG_DEFAULTS, ...opts };
  const thetas = fit.llms.map((l) => l.theta);
  const thetaHi = Math.max(o.thetaHigh, thetas.length ? topTheta(thetas, o.topShare) : -Infinity);
  const dataIndex = new Map(ds?.itemIds.map((id, i) => [id, i]) ?? []);
  const out: ItemFlag[] = [];
  for (const it of fit.items) {
    if (isBinary(fit.model)) {
      if ((it.slope ?? 1) <= 0)
        out.push({
          item: it.id,
          benchmark: it.benchmark,
          key: it.key,
          flag: 'non-discriminating',
          option: '',
          reason:
            'Stronger LLMs are not more likely to answer correctly: the item does not separate LLMs (or is mis-keyed).',
          evidence: `slope = ${f2(it.slope ?? NaN)}`,
        });
    } else out.push(...nominalFlagsOf(it, thetas.length ? thetas : [0], thetaHi, o));
    const i = dataIndex.get(it.id);
    if (ds && i !== undefined) {
      const sat = saturationFlag(it, ds, i, o.saturation);
      if (sat) out.push(sat);
    }
  }
  if (ds) out.push(...duplicateFlags(fit, ds, o.minDuplicateLlms, o.minDuplicateMinority));
  else out.push(...modelSaturationFlags(fit, o.saturation));
  return out;
}
