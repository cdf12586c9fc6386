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
import { isBinary, nominalTerms, type NominalModel } from '../model/types';
import { FLAG_DEFAULTS } from '../defaults';
import type { FlagOptions } from './flagOptions';
import { bankFromFit } from './bank';
import { itemProblem, keySwapGain, type ItemProblem } from './keycheck';
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

export type { FlagOptions };

const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : String(x));
const label = (k: number) => OPTION_LABELS[k] ?? '?';

/**
 * The bank's key-vs-distractor separation in a: median over keys minus median
 * over distractors, the unit of `miskeyGap`. 1 when the bank has no positive
 * separation to measure (e.g. a handful of items, or every key mis-set).
 */
export function slopeSeparation(items: ItemResult[]): number {
  const keys: number[] = [];
  const wrong: number[] = [];
  for (const it of items) {
    if (!it.a) continue;
    const g = nominalItemOf(it).key;
    it.a.forEach((v, k) => (k === g ? keys : wrong).push(v));
  }
  const median = (x: number[]) => {
    const s = [...x].sort((p, q) => p - q);
    const m = s.length >> 1;
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
  };
  if (keys.length === 0 || wrong.length === 0) return 1;
  const S = median(keys) - median(wrong);
  return S > 0 ? S : 1;
}

/** What a mis-key check may read beyond the fitted parameters. */
interface ItemEvidence {
  /** LLMs that answered the item: their fitted θ and, with data, their observed distribution. */
  thetas: number[];
  observed: Float64Array[] | null;
  /** With data and a fallback model: the refit problem of the key check. */
  problem: ItemProblem | null;
  /** The bank's key-vs-distractor separation in a (`slopeSeparation`). */
  scale: number;
}

function nominalFlagsOf(it: ItemResult, ev: ItemEvidence, o: Required<FlagOptions>): ItemFlag[] {
  const out: ItemFlag[] = [];
  const base = { item: it.id, benchmark: it.benchmark, key: it.key };
  const ni = nominalItemOf(it);
  const g = ni.key;
  const a = it.a!;
  const c = it.c!;
  const { thetas } = ev;
  const lo = Math.min(...thetas);
  const hi = Math.max(...thetas);
  const range = `θ ${f2(lo)}…${f2(hi)}`;
  // Mis-keyed, from evidence inside the data only (no curve is extrapolated):
  // a distractor d rises with ability faster than the key (a_d − a_key >
  // miskeyGap·S), some of the LLMs that answered prefer d to the key, and,
  // where the key enters the model (the fallback gate's b̃), the observed cells
  // fit at least as well with d as the key.
  const p = new Float64Array(it.nOptions);
  const support = (d: number): number => {
    let n = 0;
    for (let q = 0; q < thetas.length; q++) {
      const obs = ev.observed?.[q];
      if (obs) n += obs[d] > obs[g] ? 1 : 0;
      else {
        probsAt(ni, thetas[q], p);
        n += p[d] > p[g] ? 1 : 0;
      }
    }
    return n;
  };
  let best: { d: number; gap: number; n: number; dce: number | null } | null = null;
  for (let d = 0; d < it.nOptions; d++) {
    if (d === g) continue;
    const gap = (a[d] - a[g]) / ev.scale;
    if (!(gap > o.miskeyGap) || (best && gap <= best.gap)) continue;
    const n = support(d);
    if (n < o.minSupport) continue;
    let dce: number | null = null;
    if (ev.problem) {
      dce = keySwapGain(ev.problem, g, d);
      if (dce < -o.keyFitTol) continue;
    }
    best = { d, gap, n, dce };
  }
  if (best) {
    const { d, n, dce } = best;
    out.push({
      ...base,
      flag: 'possibly-mis-keyed',
      option: label(d),
      reason: `Option ${label(d)} rises with ability faster than the key ${it.key}, and ${n} of the ${thetas.length} LLMs that answered prefer it to the key: ${label(d)} may be the right answer.`,
      evidence:
        `a_${label(d)} = ${f2(a[d])} vs a_key = ${f2(a[g])} (bank separation ${f2(ev.scale)}); ` +
        `${n}/${thetas.length} LLMs with p_${label(d)} > p_key, ${ev.observed ? 'observed' : 'model-predicted'} (${range})` +
        (dce === null
          ? ''
          : `; cross-entropy with ${label(d)} as key: ${dce >= 0 ? '−' : '+'}${f2(Math.abs(dce))}`),
    });
  }
  // Non-discriminating: on average over the θ of the LLMs that answered, the key's curve does not rise.
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
      evidence: `mean a_key − ā(θ) over the LLMs' θ (${f2(lo)}…${f2(hi)}): ${f2(slope)}`,
    });
  // Judged over the LLMs' θ range, not a fixed −4…4.
  if (informativeDistractors(ni, lo, hi).length === 0)
    out.push({
      ...base,
      flag: 'no-informative-distractor',
      option: '',
      reason: `No wrong option is the most likely answer anywhere in the LLMs' range (${range}): which wrong answer an LLM picks says little about its ability.`,
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
 * Flag items of a fit. Every flag reads only evidence inside the data: the
 * LLMs that answered the item, at their fitted θ; no curve is extrapolated
 * beyond the highest or lowest θ.
 *
 * Mis-keyed: a distractor d with a_d − a_key > miskeyGap · S (S the bank's
 * key-vs-distractor separation in a), at least minSupport of the LLMs that
 * answered putting more on d than on the key (observed; model-predicted at
 * their θ without data), and, with data and a fallback model, the item's
 * cells fitting at least as well with d as the key (`keySwapGain` ≥
 * −keyFitTol). So an item every LLM answers correctly is never flagged.
 * Tuned on simulateNominal seeds 1001–1010, 5% of keys swapped to a random
 * distractor, concentration 100, default llmnrm fit at commit 1e97142:
 * 60 LLMs × 300 items, recall 0.80–1.00 (mean 0.90), false flags 2.5–4.6%;
 * 18 LLMs × 345 items, recall 0.82–1.00 (mean 0.90), false flags 4.0–11.0%
 * (slopes from 18 LLMs are noisy). The slopes alone cannot do better: in that
 * simulation ~6% of intact items have a distractor out-discriminating the key.
 *
 * Parameter-based flags (mis-keyed, non-discriminating, no informative
 * distractor) need a nominal model; saturation and duplicate
 * patterns read the data (items matched by id) when given; without it,
 * saturation is judged from the model's predictions for the calibration LLMs.
 * Binary models are flagged as
 * non-discriminating when their slope is ≤ 0.
 */
export function flagItems(fit: FitJson, ds?: Dataset, opts: FlagOptions = {}): ItemFlag[] {
  const o: Required<FlagOptions> = { ...FLAG_DEFAULTS, ...opts };
  const thetas = fit.llms.map((l) => l.theta);
  const dataIndex = new Map(ds?.itemIds.map((id, i) => [id, i]) ?? []);
  const llmIndex = new Map(ds?.llmIds.map((id, j) => [id, j]) ?? []);
  const scale = isBinary(fit.model) ? 1 : slopeSeparation(fit.items);
  const fallback = !isBinary(fit.model) && nominalTerms(fit.model as NominalModel).fallback;
  const out: ItemFlag[] = [];
  for (const it of fit.items) {
    const i = dataIndex.get(it.id);
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
    } else {
      // The LLMs that answered the item (all calibration LLMs without data).
      let ev: ItemEvidence = {
        thetas: thetas.length ? thetas : [0],
        observed: null,
        problem: null,
        scale,
      };
      if (ds && i !== undefined) {
        const th: number[] = [];
        const obs: Float64Array[] = [];
        for (const l of fit.llms) {
          const j = llmIndex.get(l.id);
          if (j === undefined || !ds.observed[j * ds.I + i]) continue;
          const off = (j * ds.I + i) * ds.Kmax;
          th.push(l.theta);
          obs.push(Float64Array.from(ds.obs.subarray(off, off + it.nOptions)));
        }
        if (th.length)
          ev = {
            thetas: th,
            observed: obs,
            problem: fallback ? itemProblem(fit, ds, i, it) : null,
            scale,
          };
      }
      out.push(...nominalFlagsOf(it, ev, o));
    }
    if (ds && i !== undefined) {
      const sat = saturationFlag(it, ds, i, o.saturation);
      if (sat) out.push(sat);
    }
  }
  if (ds) out.push(...duplicateFlags(fit, ds, o.minDuplicateLlms, o.minDuplicateMinority));
  else out.push(...modelSaturationFlags(fit, o.saturation));
  return out;
}
