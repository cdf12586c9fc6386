/** Helpers for this folder's tests (not used by the app). */
import type { Dataset } from '../data/types';
import { OPTION_LABELS } from '../data/types';
import type { FitJson } from '../fit/types';
import { DEFAULT_SETTINGS } from '../fit/types';
import { allBtilde } from '../model/nominal';
import type { ModelType, NominalLayout, NominalModel } from '../model/types';

/** The columns of a cross-validation summary row, in order (per-fold metrics, mean and sd). */
export const CV_SUMMARY_COLUMNS = [
  'model',
  'optionAcc_mean',
  'optionAcc_sd',
  'optionLogLoss_mean',
  'optionLogLoss_sd',
  'binaryAcc_mean',
  'binaryAcc_sd',
  'binaryLogLoss_mean',
  'binaryLogLoss_sd',
  'binaryBrier_mean',
  'binaryBrier_sd',
];

/** A fit.json with no LLMs or items yet. */
export function emptyFitJson(model: ModelType, Kmax: number): FitJson {
  return {
    schema: 'llm-nrm-fit/1',
    model,
    mode: 'default',
    optimizer: 'fast',
    objective: 0,
    crossEntropy: 0,
    penalty: 0,
    prior: 0,
    meanCrossEntropy: 0,
    nCells: 0,
    steps: 0,
    passes: 0,
    converged: true,
    seconds: 0,
    engine: 'fused',
    engineReason: 'test',
    settings: { ...DEFAULT_SETTINGS, model },
    Kmax,
    llms: [],
    items: [],
    global: { w0: 0, kappa: 0 },
    notes: [],
    trace: [],
  };
}

/** A fit.json holding given natural parameters (e.g. a simulation's truth). */
export function fitJsonFromNat(
  ds: Dataset,
  nat: Float64Array,
  L: NominalLayout,
  model: NominalModel = 'llmnrm',
): FitJson {
  const K = L.Kmax;
  const bt = allBtilde(nat, L, ds.nOptions, ds.key);
  return {
    ...emptyFitJson(model, K),
    llms: ds.llmIds.map((id, j) => ({
      id,
      theta: nat[L.theta + j],
      thetaSE: 0,
      s: nat[L.s + j],
      delta: Array.from(nat.subarray(L.delta + j * K, L.delta + (j + 1) * K)),
      rho: Array.from(nat.subarray(L.rho + j * K, L.rho + (j + 1) * K)),
      accuracy: 0,
      nObserved: 0,
    })),
    items: ds.itemIds.map((id, i) => ({
      id,
      benchmark: ds.benchmarks[i],
      key: OPTION_LABELS[ds.key[i]],
      nOptions: ds.nOptions[i],
      a: Array.from(nat.subarray(L.a + i * K, L.a + i * K + ds.nOptions[i])),
      c: Array.from(nat.subarray(L.c + i * K, L.c + i * K + ds.nOptions[i])),
      b: bt[i],
    })),
    global: { w0: nat[L.w0], kappa: nat[L.kappa] },
  };
}

/** A small data set from explicit cells: rows of [llm, item, probabilities]. */
export function tinyDataset(
  items: { id: string; K: number; key: number; benchmark?: string }[],
  cells: [string, string, number[]][],
): Dataset {
  const llmIds = [...new Set(cells.map((c) => c[0]))];
  const J = llmIds.length;
  const I = items.length;
  const Kmax = Math.max(...items.map((it) => it.K));
  const obs = new Float32Array(J * I * Kmax);
  const observed = new Uint8Array(J * I);
  for (const [l, it, p] of cells) {
    const j = llmIds.indexOf(l);
    const i = items.findIndex((x) => x.id === it);
    observed[j * I + i] = 1;
    p.forEach((v, k) => (obs[(j * I + i) * Kmax + k] = v));
  }
  return {
    J,
    I,
    Kmax,
    llmIds,
    itemIds: items.map((it) => it.id),
    benchmarks: items.map((it) => it.benchmark ?? 'b'),
    nOptions: Uint8Array.from(items.map((it) => it.K)),
    key: Uint8Array.from(items.map((it) => it.key)),
    obs,
    observed,
    leakage: new Float32Array(J * I),
    sources: [],
    warnings: [],
  };
}
