import { subsetDataset } from '../data/subset';
import { OPTION_LABELS, type Dataset } from '../data/types';
import { createFusedEngine } from '../engines/fused';
import type { Problem } from '../engines/types';
import { accuracyByLlm, channelCells } from '../model/cells';
import { softplusInv } from '../model/math';
import { binaryParameterisation } from '../model/binaryParams';
import { nominalParameterisation } from '../model/nominalParams';
import { type Parameterisation } from '../model/params';
import { binaryLayout, isBinary, nominalFlags, nominalLayout, type Channel } from '../model/types';
import { gateOf } from '../model/gate';
import { lbfgs } from './optim';
import { thetaSE } from './result';
import type { FitJson, LlmResult } from './types';

export interface ScoreOptions {
  /** What the estimator observes: the option distribution (default), correctness, or wrong options only. */
  channel?: Channel;
  signal?: AbortSignal;
  maxSteps?: number;
}

export interface ScoreResult {
  llms: LlmResult[];
  /** Items in the data that the bank does not hold: reported and ignored. */
  notInBank: string[];
  /** Items used for scoring. */
  used: number;
}

/**
 * Score LLMs against a calibrated bank: MAP θ ~ N(0, 1) with every item and
 * global parameter held at the bank's values; each LLM's own s, δ and ρ are
 * estimated alongside θ. SE(θ) is 1/√(observed information in θ).
 */
export async function scoreLlms(
  data: Dataset,
  bank: FitJson,
  opts: ScoreOptions = {},
): Promise<ScoreResult> {
  const byId = new Map(bank.items.map((it, i) => [it.id, i]));
  const keepIdx: number[] = [];
  const notInBank: string[] = [];
  data.itemIds.forEach((id, i) => {
    const b = byId.get(id);
    if (b === undefined) return void notInBank.push(id);
    const it = bank.items[b];
    if (it.nOptions !== data.nOptions[i] || it.key !== OPTION_LABELS[data.key[i]])
      throw new Error(
        `Item ${id}: the data has key ${OPTION_LABELS[data.key[i]]} of ${data.nOptions[i]} options, the bank key ${it.key} of ${it.nOptions}.`,
      );
    keepIdx.push(i);
  });
  if (keepIdx.length === 0) throw new Error('None of the data items is in the bank.');
  const ds = keepIdx.length === data.I ? data : subsetDataset(data, undefined, keepIdx);
  const bankItems = ds.itemIds.map((id) => bank.items[byId.get(id)!]);
  const channel = opts.channel ?? 'option';
  const { J, I, Kmax } = ds;

  let problem: Problem;
  let P: Parameterisation;
  const x0: Float64Array = new Float64Array(0);
  let free: Float64Array = x0;
  const frozen: [number, number][] = [];
  if (isBinary(bank.model)) {
    const layout = binaryLayout(J, I);
    const bp = binaryParameterisation(layout, bank.model, 'score');
    const F = bp.free;
    P = bp;
    problem = { kind: 'binary', model: bank.model, layout, cells: channelCells(ds, 'binary') };
    free = new Float64Array(bp.size);
    bankItems.forEach((it, i) => {
      if (F.nA === I) free[F.a + i] = it.slope ?? 1;
      else if (F.nA === 1) free[F.a] = it.slope ?? 1;
      free[F.d + i] = it.d ?? 0;
      if (F.uBar > F.gBar) free[F.gBar + i] = Math.log((it.g ?? 1e-6) / (1 - (it.g ?? 1e-6)));
      if (F.size > F.uBar)
        free[F.uBar + i] = Math.log((it.u ?? 1 - 1e-6) / (1 - (it.u ?? 1 - 1e-6)));
    });
    frozen.push([F.a, F.size]);
  } else {
    const flags = nominalFlags(
      bank.model as Exclude<typeof bank.model, '1pl' | '2pl' | '3pl' | '4pl'>,
      gateOf(bank),
    );
    const layout = nominalLayout(J, I, Kmax);
    const np = nominalParameterisation(layout, flags, ds.nOptions, 'score');
    const F = np.free;
    P = np;
    problem = {
      kind: 'nominal',
      flags,
      layout,
      cells: channelCells(ds, channel, flags.hardTargets),
      channel,
    };
    free = new Float64Array(np.size);
    if (flags.sharpness) free.fill(softplusInv(1), F.sBar, F.sBar + J);
    bankItems.forEach((it, i) => {
      it.a!.forEach((v, k) => (free[F.a + i * Kmax + k] = v));
      it.c!.forEach((v, k) => (free[F.c + i * Kmax + k] = v));
    });
    if (flags.fallback) {
      free[F.w0] = bank.global.w0;
      free[F.kappaBar] = softplusInv(Math.max(bank.global.kappa, 1e-9));
    }
    frozen.push([F.a, F.size]);
  }
  const engine = createFusedEngine(problem);
  const nat = new Float64Array(P.natSize);
  const gNat = new Float64Array(P.natSize);
  const f = async (x: Float64Array, g: Float64Array) => {
    P.toNatural(x, nat);
    const ce = await engine.evaluate(nat, gNat);
    const { prior, penalty } = P.pullback(x, nat, gNat, g);
    for (const [a, b] of frozen) g.fill(0, a, b);
    return ce + prior + penalty;
  };
  const res = await lbfgs(f, free, {
    maxSteps: opts.maxSteps ?? 500,
    tol: 1e-10,
    gtol: 1e-6,
    signal: opts.signal,
  });
  P.toNatural(res.x, nat);
  const th = problem.layout.theta;
  const se = await thetaSE(engine, nat, J, th);
  const acc = accuracyByLlm(ds);
  const llms: LlmResult[] = ds.llmIds.map((id, j) => {
    let nObserved = 0;
    for (let i = 0; i < I; i++) nObserved += ds.observed[j * I + i];
    const base = {
      id,
      theta: nat[th + j],
      thetaSE: se[j],
      accuracy: acc[j],
      nObserved,
    };
    if (problem.kind === 'binary') return { ...base, s: 1, delta: [], rho: [] };
    const L = problem.layout;
    return {
      ...base,
      s: nat[L.s + j],
      delta: Array.from(nat.subarray(L.delta + j * Kmax, L.delta + (j + 1) * Kmax)),
      rho: Array.from(nat.subarray(L.rho + j * Kmax, L.rho + (j + 1) * Kmax)),
    };
  });
  return { llms, notInBank, used: I };
}
