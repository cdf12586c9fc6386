/**
 * Item quality flags from a fit (and, when given, the data it was fitted to):
 * each flag names the item, says what may be wrong in plain language, and
 * shows the numbers behind it.
 */
import { argmaxAt, saturatedOption } from '../model/cells';
import { OPTION_LABELS, type Dataset } from '../data/types';
import { distractorRange, informativeOptions, nominalItemOf } from '../fit/info';
import type { FitJson, ItemResult } from '../fit/types';
import { probsAt } from '../model/itemfns';
import { isBinary } from '../model/types';
import { FLAG_DEFAULTS } from '../defaults';
import type { FlagOptions } from './flagOptions';
import { bankFromFit } from './bank';
import { bankKeyPrior, checkKey, type KeyCells, type KeyPrior } from './keycheck';
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

/** Two decimals, never "-0.00". */
const f2 = (x: number) =>
  Number.isFinite(x) ? (x.toFixed(2) === '-0.00' ? '0.00' : x.toFixed(2)) : String(x);
const label = (k: number) => OPTION_LABELS[k] ?? '?';

/** One item's cells for the key check: the LLMs that answered, their θ and distributions. */
interface ItemEvidence {
  llms: string[];
  cells: KeyCells;
  /** True when the cells are the data; false when the model's predictions at the LLMs' θ. */
  observed: boolean;
}

const signed = (x: number) => `${x >= 0 ? '+' : '−'}${f2(Math.abs(x))}`;

/** At most this many LLMs are named in a mis-key flag's evidence (the highest θ first). */
const NAMED_LLMS = 6;

function miskeyFlag(
  it: ItemResult,
  ev: ItemEvidence,
  prior: KeyPrior,
  o: Required<FlagOptions>,
): ItemFlag | null {
  const g = nominalItemOf(it).key;
  const { cells } = ev;
  const check = checkKey(cells, g, prior);
  const d = check.best;
  if (d < 0 || !(check.gain >= o.minKeyGain)) return null;
  const n = cells.p.length;
  const pref: { id: string; theta: number }[] = [];
  const rest: number[] = [];
  for (let q = 0; q < n; q++)
    if (cells.p[q][d] > cells.p[q][g]) pref.push({ id: ev.llms[q], theta: cells.theta[q] });
    else rest.push(cells.theta[q]);
  if (pref.length < o.minSupport) return null;
  // The stronger LLMs must side with d: more than minTopShare of the third of highest θ.
  const order = Array.from({ length: n }, (_, q) => q).sort(
    (x, y) => cells.theta[y] - cells.theta[x] || x - y,
  );
  const top = order.slice(0, Math.ceil(n / 3));
  const topFor = top.filter((q) => cells.p[q][d] > cells.p[q][g]).length;
  if (!(topFor > o.minTopShare * top.length)) return null;
  pref.sort((x, y) => y.theta - x.theta || (x.id < y.id ? -1 : 1));
  const mean = (x: number[]) => (x.length ? x.reduce((s, v) => s + v, 0) / x.length : NaN);
  const named = pref
    .slice(0, NAMED_LLMS)
    .map((l) => `${l.id} (θ ${f2(l.theta)})`)
    .join(', ');
  const more = pref.length > NAMED_LLMS ? `, and ${pref.length - NAMED_LLMS} more` : '';
  const D = label(d);
  const fg = check.fits[g];
  const fd = check.fits[d];
  return {
    item: it.id,
    benchmark: it.benchmark,
    key: it.key,
    flag: 'possibly-mis-keyed',
    option: D,
    reason: `The ${ev.observed ? '' : 'model-predicted '}answers fit far better with ${D} as the key than with ${it.key}: ${pref.length} of the ${n} ${ev.observed ? 'LLMs that answered' : 'calibration LLMs'} prefer ${D}, ${topFor} of the ${top.length} strongest among them. ${D} may be the right answer.`,
    evidence:
      `gain with ${D} as key: ${signed(check.gain)} nats = log-likelihood ${signed(fd.logLik - fg.logLik)} over ${n} ${ev.observed ? 'observed' : 'model-predicted'} cells and ` +
      `${signed(check.gain - (fd.logLik - fg.logLik))} from ${prior.items ? `the bank's prior (${prior.items} items: ` : 'a weak prior ('}α ${f2(prior.alphaMean)} ± ${f2(prior.alphaSd)}, β ${f2(prior.betaMean)} ± ${f2(prior.betaSd)}) ` +
      `(key curve σ(αθ + β) refitted at the LLMs' θ; ${it.key} as key: α ${f2(fg.alpha)}, β ${f2(fg.beta)}, log-lik ${f2(fg.logLik)}; ${D} as key: α ${f2(fd.alpha)}, β ${f2(fd.beta)}, log-lik ${f2(fd.logLik)}); ` +
      `${pref.length}/${n} LLMs put more on ${D} than on ${it.key} (${topFor} of the ${top.length} of highest θ): ${named}${more}; mean θ ${f2(mean(pref.map((l) => l.theta)))}${rest.length ? ` vs ${f2(mean(rest))} for the others` : ''}`,
  };
}

function nominalFlagsOf(
  it: ItemResult,
  thetas: number[],
  range: [number, number],
  o: Required<FlagOptions>,
): ItemFlag[] {
  const out: ItemFlag[] = [];
  const base = { item: it.id, benchmark: it.benchmark, key: it.key };
  const ni = nominalItemOf(it);
  const g = ni.key;
  const a = it.a!;
  const c = it.c!;
  const [lo, hi] = range;
  const range$ = `θ ${f2(lo)}…${f2(hi)}`;
  // Non-discriminating: on average over the θ of the LLMs that answered, the key's curve does not rise.
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
      evidence: `mean a_key − ā(θ) over the LLMs' θ: ${f2(slope)}`,
    });
  // The one definition of an informative distractor (fit/info.ts), as the table and charts count it.
  if (informativeOptions(it, range).length === 0)
    out.push({
      ...base,
      flag: 'no-informative-distractor',
      option: '',
      reason: `No wrong option is the most likely answer anywhere in the fitted LLMs' range (${range$}): which wrong answer an LLM picks says little about its ability.`,
      evidence: `informative distractors over ${range$}: 0; a = [${a.map(f2).join(', ')}], c = [${c.map(f2).join(', ')}]`,
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
 * Mis-keyed (issue 31): the item's cells are refitted under a key curve
 * (keycheck.ts: P(key | θ) = σ(αθ + β), α ≥ 0, the wrong options sharing the
 * rest; θ held at the fit; (α, β) under the bank's prior, the median and robust
 * spread over every item with its recorded key) once with each option as the
 * key. An option d is flagged when (1) its gain over the recorded key (log
 * posterior, nats: the cells' log-likelihood plus the prior's part, both shown)
 * is at least minKeyGain, (2) at least minSupport LLMs that answered put more
 * on d than on the key, and (3) so do more than minTopShare of the third of
 * them with the highest θ. The evidence names the gain and its two parts, both
 * refits and the LLMs that prefer d with their θ. The fitted LLM-NRM itself
 * cannot say this: the key enters it only through the fallback gate, shut on
 * the NAEP data, so its cross-entropy with another key differs by 0.
 *
 * Measured with the default llmnrm fit of each set (scratch scripts,
 * 2026-12-03; "high" = intact items with ≥ 80% of LLMs' top answer on the key):
 * NAEP demo (economics + reading pooled, 18 × 345) 2 items flagged, 0 of 285
 * high; economics alone 3 of 93 (0 of 65 high); reading alone 0 of 252 (0 of
 * 220); the 4-order set 18 of 1,380 (0 of 1,129 high). The demo with 5% of its
 * keys swapped (3 seeds): recall 50 of 51, the true key named for 49, 2 of 328
 * intact items flagged per seed, 0 high. Real-like hand-formula simulations
 * (flags.test.ts's generator, 5% swapped; 18 × 345 seeds 11–13, 60 × 300 seed
 * 14): recall 66 of 66, intact 0–4 flagged per set, 0 high; flags.test.ts
 * checks seed 31 (17 of 17, 0 of 293 high). Weaker where items are hard and
 * cells soft: simulateNominal 60 × 300, concentration 100, 15 keys swapped
 * (seeds 41, 42; median accuracy about 0.5) gives recall 11 and 13 of 15, 5
 * and 4 of 285 intact items flagged; the misses are swaps whose true key the
 * strongest LLMs barely prefer, or do not (gain 0.3–3.0 nats, or the top
 * third split). minKeyGain 2 or 1.5 recovers one more there and flags 1–3 more
 * intact real items per set (demo 3, 4-order set 20–21). The rule before (a slope gap, ≥ 1
 * LLM, the gate's refit) flagged 8 of the demo's items (3 of 285 high) and
 * 56 of 1,380 (15 of 1,129 high), with recall 43 of 51 on the swapped demo.
 * Without data the cells are the model's predictions at the calibration LLMs' θ.
 *
 * Parameter-based flags (mis-keyed, non-discriminating, no informative
 * distractor) need a nominal model; saturation and duplicate
 * patterns read the data (items matched by id) when given; without it,
 * saturation is judged from the model's predictions for the calibration LLMs.
 * "No informative distractor" uses the one definition of `fit/info.ts`
 * (`informativeOptions` over the fitted LLMs' θ range), as the items table,
 * the Distractors tab, the report and `llm-nrm info` count them.
 * Binary models are flagged as non-discriminating when their slope is ≤ 0.
 */
export function flagItems(fit: FitJson, ds?: Dataset, opts: FlagOptions = {}): ItemFlag[] {
  const o: Required<FlagOptions> = { ...FLAG_DEFAULTS, ...opts };
  const dataIndex = new Map(ds?.itemIds.map((id, i) => [id, i]) ?? []);
  const llmIndex = new Map(ds?.llmIds.map((id, j) => [id, j]) ?? []);
  const range = distractorRange(fit);
  const binary = isBinary(fit.model);
  // Each nominal item's cells: observed with data, else model-predicted at the calibration LLMs' θ.
  const evidence = new Map<string, ItemEvidence>();
  if (!binary)
    for (const it of fit.items) {
      const i = dataIndex.get(it.id);
      const llms: string[] = [];
      const theta: number[] = [];
      const p: Float64Array[] = [];
      let observed = false;
      if (ds && i !== undefined) {
        observed = true;
        for (const l of fit.llms) {
          const j = llmIndex.get(l.id);
          if (j === undefined || !ds.observed[j * ds.I + i]) continue;
          const off = (j * ds.I + i) * ds.Kmax;
          llms.push(l.id);
          theta.push(l.theta);
          p.push(Float64Array.from(ds.obs.subarray(off, off + it.nOptions)));
        }
      }
      if (llms.length === 0) {
        observed = false;
        const ni = nominalItemOf(it);
        for (const l of fit.llms) {
          const q = new Float64Array(it.nOptions);
          probsAt(ni, l.theta, q);
          llms.push(l.id);
          theta.push(l.theta);
          p.push(q);
        }
      }
      evidence.set(it.id, { llms, cells: { K: it.nOptions, theta, p }, observed });
    }
  const prior = bankKeyPrior(
    fit.items.flatMap((it) => {
      const ev = evidence.get(it.id);
      return ev && ev.llms.length ? [{ cells: ev.cells, key: nominalItemOf(it).key }] : [];
    }),
  );
  const out: ItemFlag[] = [];
  for (const it of fit.items) {
    const i = dataIndex.get(it.id);
    if (binary) {
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
      const ev = evidence.get(it.id)!;
      if (ev.llms.length) {
        const mis = miskeyFlag(it, ev, prior, o);
        if (mis) out.push(mis);
      }
      const thetas = ev.cells.theta.length ? Array.from(ev.cells.theta) : [0];
      out.push(...nominalFlagsOf(it, thetas, range, o));
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
