import type { Dataset } from '../data/types';
import { OPTION_LABELS } from '../data/types';
import type { Engine } from '../engines/types';
import { accuracyByLlm } from '../model/cells';
import { allBtilde, guardedItems, maxGate } from '../model/nominal';
import type { OptimResult } from './optim';
import type { PriorScale } from '../model/hprior';
import type { ObjectiveParts, Posed } from './pose';
import type { FitJson, FitSettings, ItemResult, LlmResult, TracePoint } from './types';
import { identificationNotes } from './notes';
import { attachSE, fitUncertainty } from './uncertainty/json';

interface BuildArgs {
  ds: Dataset;
  settings: FitSettings;
  posed: Posed;
  engine: Engine;
  nat: Float64Array;
  parts: ObjectiveParts;
  res: OptimResult;
  seconds: number;
  engineReason: string;
  trace: TracePoint[];
  scales: PriorScale[];
  priorSelection?: FitJson['priorSelection'];
  /** ∂θ_j/∂log λ (data order) where λ's share of SE(θ) was measured (priorSelection.spread). */
  thetaSlope?: Float64Array;
  precision: FitJson['precision'];
}

/**
 * SE(θ_j) from the observed information with item and global parameters held
 * fixed: 1/√(∂²CE/∂θ_j² + 1). Each θ_j only touches its own cells, so one
 * central difference of the gradient with every θ moved at once gives the whole
 * diagonal in two passes.
 */
export async function thetaSE(
  engine: Engine,
  nat: Float64Array,
  J: number,
  thetaOff: number,
): Promise<number[]> {
  const h = 1e-4;
  const x = Float64Array.from(nat);
  const gp = new Float64Array(nat.length);
  const gm = new Float64Array(nat.length);
  for (let j = 0; j < J; j++) x[thetaOff + j] = nat[thetaOff + j] + h;
  await engine.evaluate(x, gp);
  for (let j = 0; j < J; j++) x[thetaOff + j] = nat[thetaOff + j] - h;
  await engine.evaluate(x, gm);
  return Array.from({ length: J }, (_, j) => {
    const info = (gp[thetaOff + j] - gm[thetaOff + j]) / (2 * h) + 1;
    return info > 0 ? 1 / Math.sqrt(info) : NaN;
  });
}

/** Assemble fit.json from the final natural parameters. */
export async function buildFitJson(a: BuildArgs): Promise<FitJson> {
  const { ds, nat, posed } = a;
  const { J, I, Kmax } = ds;
  const problem = posed.problem;
  const thetaOff = problem.layout.theta;
  // SEs with every other parameter's uncertainty (Laplace, uncertainty/laplace.ts); the
  // conditional thetaSE stays as the fallback and for bank scoring.
  const unc = fitUncertainty(problem, nat, a.settings.mode, posed.P.priorPrecision());
  const se = unc.res ? Array.from(unc.res.thetaSE) : await thetaSE(a.engine, nat, J, thetaOff);
  const acc = accuracyByLlm(ds);
  const nObs = new Array<number>(J).fill(0);
  for (let j = 0; j < J; j++) for (let i = 0; i < I; i++) nObs[j] += ds.observed[j * I + i];
  const llms: LlmResult[] = ds.llmIds.map((id, j) => {
    if (problem.kind === 'binary') {
      return {
        id,
        theta: nat[thetaOff + j],
        thetaSE: se[j],
        s: 1,
        delta: [],
        rho: [],
        accuracy: acc[j],
        nObserved: nObs[j],
      };
    }
    const L = problem.layout;
    return {
      id,
      theta: nat[L.theta + j],
      thetaSE: se[j],
      s: nat[L.s + j],
      delta: Array.from(nat.subarray(L.delta + j * Kmax, L.delta + (j + 1) * Kmax)),
      rho: Array.from(nat.subarray(L.rho + j * Kmax, L.rho + (j + 1) * Kmax)),
      accuracy: acc[j],
      nObserved: nObs[j],
    };
  });
  let items: ItemResult[];
  let global = { w0: 0, kappa: 0 };
  if (problem.kind === 'nominal') {
    const L = problem.layout;
    const bt = allBtilde(nat, L, ds.nOptions, ds.key);
    items = ds.itemIds.map((id, i) => {
      const K = ds.nOptions[i];
      return {
        id,
        benchmark: ds.benchmarks[i],
        key: OPTION_LABELS[ds.key[i]],
        nOptions: K,
        a: Array.from(nat.subarray(L.a + i * Kmax, L.a + i * Kmax + K)),
        c: Array.from(nat.subarray(L.c + i * Kmax, L.c + i * Kmax + K)),
        b: bt[i],
      };
    });
    if (problem.flags.fallback) global = { w0: nat[L.w0], kappa: nat[L.kappa] };
  } else {
    const L = problem.layout;
    items = ds.itemIds.map((id, i) => ({
      id,
      benchmark: ds.benchmarks[i],
      key: OPTION_LABELS[ds.key[i]],
      nOptions: ds.nOptions[i],
      b: -nat[L.d + i] / nat[L.a + i],
      slope: nat[L.a + i],
      d: nat[L.d + i],
      g: nat[L.g + i],
      u: nat[L.u + i],
    }));
  }
  const n = problem.cells.n;
  const json: FitJson = {
    schema: 'llm-nrm-fit/1',
    model: a.settings.model,
    mode: a.settings.mode,
    optimizer: a.settings.optimizer,
    objective: a.parts.crossEntropy + a.parts.prior,
    crossEntropy: a.parts.crossEntropy,
    penalty: a.parts.penalty,
    prior: a.parts.prior,
    meanCrossEntropy: n ? a.parts.crossEntropy / n : NaN,
    nCells: n,
    steps: a.res.steps,
    passes: a.res.passes + 3,
    converged: a.res.converged,
    stopReason: a.res.reason,
    gradNorm: a.res.gradNorm,
    gradMax: a.res.gradMax,
    priors: a.scales,
    priorSelection: a.priorSelection,
    seconds: a.seconds,
    engine: a.engine.name,
    engineReason: a.engineReason,
    precision: a.precision,
    settings: a.settings,
    ...gateFields(a),
    Kmax,
    llms,
    items,
    global,
    notes: [...identificationNotes(ds, a.settings.mode), ...modelNotes(a)],
    trace: a.trace,
  };
  return addStrengthShare(attachSE(json, unc), a.thetaSlope);
}

/**
 * λ's share of SE(θ) (strengthShare.ts): |∂θ_j/∂log λ| · sd(log λ), added in
 * quadrature to the SE at λ, and said in `seMethod`.
 */
function addStrengthShare(json: FitJson, slope: Float64Array | undefined): FitJson {
  const spread = json.priorSelection?.spread;
  if (!spread || !slope) return json;
  json.llms.forEach((l, j) => {
    const part = Math.abs(slope[j]) * spread.sdLogLambda;
    l.thetaSELambda = part;
    l.thetaSE = Math.hypot(l.thetaSE, part);
  });
  json.seMethod =
    `${json.seMethod ?? ''}; SE(θ) adds λ's share in quadrature: |∂θ/∂log λ| · sd(log λ), ` +
    `with sd(log λ) = ${spread.sdLogLambda.toFixed(3)} by the jackknife over the search's ` +
    `${spread.leaveOneOut.length} folds and ∂θ/∂log λ from refits at λ·e^±${spread.step}` +
    (spread.converged ? '' : ' (a refit did not pass the convergence test)');
  return json;
}

/** fit.json's `gate` and `gateMax` (models with the fallback gate). */
function gateFields(a: BuildArgs): Pick<FitJson, 'gate' | 'gateMax'> {
  const problem = a.posed.problem;
  if (problem.kind !== 'nominal' || !problem.flags.fallback) return {};
  const { layout: L, flags } = problem;
  const gateMax = maxGate(a.nat, L, flags, a.ds.nOptions, a.ds.key, a.ds.observed);
  return { gate: flags.gate, gateMax };
}

/** What the fitted parameters say about the model's own approximations. */
function modelNotes(a: BuildArgs): string[] {
  const problem = a.posed.problem;
  const notes: string[] = [];
  if (problem.kind === 'nominal' && problem.flags.fallback && problem.flags.gate === 'eq10') {
    const n = guardedItems(a.nat, problem.layout, a.ds.nOptions, a.ds.key).length;
    if (n > 0)
      notes.push(
        `${n} item${n === 1 ? '' : 's'} ha${n === 1 ? 's' : 've'} a b̃ denominator (eq. 10) within ±0.1, where the smooth guard shrinks b̃ by more than 20% against the paper's ratio.`,
      );
  }
  if (problem.kind === 'binary' && a.settings.model === '4pl') {
    const L = problem.layout;
    let n = 0;
    for (let i = 0; i < a.ds.I; i++) if (a.nat[L.u + i] <= a.nat[L.g + i]) n++;
    if (n > 0)
      notes.push(
        `4PL does not force u > g: ${n} item${n === 1 ? '' : 's'} ended with u ≤ g (the curve falls with θ).`,
      );
  }
  return notes;
}
