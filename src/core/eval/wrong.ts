/**
 * Ability from wrong answers alone (paper Table 3). K-fold over LLMs: item
 * parameters are fitted on the training LLMs, then held fixed while θ of each
 * held-out LLM is estimated from (i) correctness only ('binary') and (ii) only
 * the distractor choices of its wrong answers ('wrong'), optionally also (iii)
 * the full option response ('option'). Each is compared with the reference θ,
 * the θ of one fit on all LLMs (full information).
 */
import { subsetDataset } from '../data/subset';
import type { Dataset } from '../data/types';
import { fitDataset } from '../fit/fit';
import { scoreLlms } from '../fit/score';
import type { FitJson, FitProgress } from '../fit/types';
import { isCorrect } from '../model/cells';
import type { Channel, ModelType } from '../model/types';
import { pearson, spearman } from '../stats/corr';
import { meanSdSample, throwIfAborted, type EvalRunOptions } from './common';
import { unitFolds } from './folds';

export interface WrongOnlyOptions extends EvalRunOptions {
  model?: ModelType;
  folds?: number;
  seed?: number;
  /** Observation scenarios (default binary and wrong). */
  channels?: readonly Channel[];
  /** The full-information reference fit on all LLMs (fitted when omitted). */
  reference?: FitJson;
}

/** One held-out LLM's θ under each scenario. */
export interface WrongOnlyLlm {
  llm: string;
  fold: number;
  thetaRef: number;
  /** Items answered wrongly (argmax ≠ key): what the 'wrong' scenario sees. */
  nWrong: number;
  theta: Partial<Record<Channel, number>>;
}

/** One scenario's agreement with the reference θ. */
export interface WrongOnlyRow {
  scenario: Channel;
  folds: number;
  spearman_mean: number;
  spearman_sd: number;
  pearson_mean: number;
  pearson_sd: number;
  /** Over all held-out LLMs of all folds pooled (each fold's bank has its own θ scale). */
  spearman_pooled: number;
  pearson_pooled: number;
  nLlms: number;
}

export interface WrongOnlyResult {
  model: ModelType;
  rows: WrongOnlyRow[];
  llms: WrongOnlyLlm[];
  /** Per fold and scenario. */
  perFold: { fold: number; scenario: Channel; n: number; spearman: number; pearson: number }[];
}

export async function wrongOnly(
  ds: Dataset,
  opts: WrongOnlyOptions = {},
): Promise<WrongOnlyResult> {
  const model = opts.model ?? 'llmnrm';
  const k = opts.folds ?? 5;
  const channels = opts.channels ?? (['binary', 'wrong'] as const);
  const fold = unitFolds(ds.J, k, opts.seed ?? 1);
  const total = k * (1 + channels.length) + (opts.reference ? 0 : 1);
  let done = 0;
  const fitOpts = (stage: string) => ({
    signal: opts.signal,
    engine: opts.engine,
    onProgress: (p: FitProgress) =>
      opts.onProgress?.({ task: 'wrong', done, total, stage, fit: p }),
  });
  let ref = opts.reference;
  if (!ref) {
    opts.onProgress?.({ task: 'wrong', done, total, stage: 'reference fit on all LLMs' });
    ref = await fitDataset(
      ds,
      { ...opts.fitSettings, model },
      fitOpts('reference fit on all LLMs'),
    );
    done++;
  }
  if (ref.model !== model)
    throw new Error(`The reference fit is ${ref.model}, the run is ${model}.`);
  const refTheta = new Map(ref.llms.map((l) => [l.id, l.theta]));
  const llms: WrongOnlyLlm[] = [];
  const perFold: WrongOnlyResult['perFold'] = [];
  for (let f = 0; f < k; f++) {
    throwIfAborted(opts.signal);
    const trainIdx: number[] = [];
    const testIdx: number[] = [];
    for (let j = 0; j < ds.J; j++) (fold[j] === f ? testIdx : trainIdx).push(j);
    const stage = `fold ${f + 1}/${k}: item bank from ${trainIdx.length} LLMs`;
    opts.onProgress?.({ task: 'wrong', done, total, stage });
    const bank = await fitDataset(
      subsetDataset(ds, trainIdx),
      { ...opts.fitSettings, model },
      fitOpts(stage),
    );
    done++;
    const held = subsetDataset(ds, testIdx);
    const rows: WrongOnlyLlm[] = held.llmIds.map((llm, q) => {
      let nWrong = 0;
      for (let i = 0; i < held.I; i++) {
        if (!held.observed[q * held.I + i]) continue;
        if (!isCorrect(held, q * held.I + i)) nWrong++;
      }
      const t = refTheta.get(llm);
      if (t === undefined) throw new Error(`The reference fit has no LLM "${llm}".`);
      return { llm, fold: f, thetaRef: t, nWrong, theta: {} };
    });
    for (const ch of channels) {
      throwIfAborted(opts.signal);
      opts.onProgress?.({ task: 'wrong', done, total, stage: `fold ${f + 1}/${k}: θ from ${ch}` });
      const sc = await scoreLlms(held, bank, { channel: ch, signal: opts.signal });
      sc.llms.forEach((l, q) => (rows[q].theta[ch] = l.theta));
      done++;
      const x = rows.map((r) => r.theta[ch]!);
      const y = rows.map((r) => r.thetaRef);
      perFold.push({
        fold: f,
        scenario: ch,
        n: rows.length,
        spearman: spearman(x, y),
        pearson: pearson(x, y),
      });
    }
    llms.push(...rows);
  }
  opts.onProgress?.({ task: 'wrong', done, total, stage: 'done' });
  const out: WrongOnlyRow[] = channels.map((ch) => {
    const pf = perFold.filter((p) => p.scenario === ch);
    const s = meanSdSample(pf.map((p) => p.spearman));
    const p = meanSdSample(pf.map((q) => q.pearson));
    const x = llms.map((r) => r.theta[ch]!);
    const y = llms.map((r) => r.thetaRef);
    return {
      scenario: ch,
      folds: pf.length,
      spearman_mean: s.mean,
      spearman_sd: s.sd,
      pearson_mean: p.mean,
      pearson_sd: p.sd,
      spearman_pooled: spearman(x, y),
      pearson_pooled: pearson(x, y),
      nLlms: llms.length,
    };
  });
  return { model, rows: out, llms, perFold };
}
