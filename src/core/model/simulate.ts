import type { Dataset } from '../data/types';
import { allBtilde, nominalProbs } from './nominal';
import { createRng, type Rng } from './rng';
import type { GateForm } from './gate';
import { nominalFlags, nominalLayout, type NominalLayout, type NominalModel } from './types';

/** A realistic mix of option counts, mean ≈ 5.85 (the paper's bank has 5.82). */
export const OPTION_COUNT_MIX: Readonly<Record<number, number>> = {
  2: 0.04,
  3: 0.05,
  4: 0.46,
  5: 0.1,
  6: 0.02,
  7: 0.02,
  8: 0.02,
  9: 0.02,
  10: 0.27,
};

/**
 * Named true gates: `open` (the default, G between about 0.05 and 0.5) and
 * `shut` (G ≈ 2e-9 everywhere), as the fits of the real NAEP data end (a
 * fitted w0 near −20, κ near 0).
 */
export const SIMULATED_GATES = {
  open: { w0: -2, kappa: 1 },
  shut: { w0: -20, kappa: 0 },
} as const;
export type SimulatedGate = keyof typeof SIMULATED_GATES;

/** A gate's name from a command line: `open` or `shut`. */
export function simulatedGate(name: string, option: string): SimulatedGate {
  if (Object.hasOwn(SIMULATED_GATES, name)) return name as SimulatedGate;
  throw new Error(`${option}: expected open or shut, got "${name}"`);
}

export interface SimulateOptions {
  J: number;
  I: number;
  seed?: number;
  model?: NominalModel;
  /** Fixed K for every item, or the realistic mix when omitted. */
  K?: number;
  /** K drawn uniformly from [min, max] per item (instead of the mix; ignored with `K`). */
  kRange?: [number, number];
  /** Share of (LLM, item) cells left missing. */
  missing?: number;
  /** Dirichlet concentration of observation noise around the model's p; 0 = exact p. */
  concentration?: number;
  /**
   * Each cell one categorical draw from p (after any Dirichlet noise), stored
   * one-hot: the data the model's likelihood describes exactly.
   */
  oneHot?: boolean;
  /** The fallback gate's truth (models with the fallback); default `open`. */
  gate?: SimulatedGate;
  /** The true gate's form (gate.ts); default 'eq10' (the paper's). */
  gateForm?: GateForm;
}

export interface Simulated {
  data: Dataset;
  /** True natural parameters (layout nominalLayout(J, I, Kmax)). */
  truth: Float64Array;
  layout: NominalLayout;
}

function drawK(rng: Rng): number {
  let u = rng.next();
  for (const [k, w] of Object.entries(OPTION_COUNT_MIX)) {
    u -= w;
    if (u < 0) return Number(k);
  }
  return 4;
}

/**
 * Simulate LLM option distributions from the LLM-NRM with known parameters:
 * θ ~ N(0,1); key a ~ N(1.2, 0.4²), distractor a ~ N(−0.3, 0.6²) (then centred);
 * c ~ N(0, 1²); s ~ logN(0, 0.3²); δ ~ N(0, 0.4²); ρ ~ N(0, 1); w0 = −2, κ = 1
 * (the `open` gate) unless `gate` says otherwise, in eq. 10's form unless
 * `gateForm` is 'margin'.
 */
export function simulateNominal(opts: SimulateOptions): Simulated {
  const rng = createRng(opts.seed ?? 1);
  const { J, I } = opts;
  const flags = nominalFlags(opts.model ?? 'llmnrm', opts.gateForm ?? 'eq10');
  const nOptions = new Uint8Array(I);
  const key = new Uint8Array(I);
  for (let i = 0; i < I; i++) {
    const r = opts.kRange;
    nOptions[i] = opts.K ?? (r ? r[0] + rng.int(r[1] - r[0] + 1) : drawK(rng));
    key[i] = rng.int(nOptions[i]);
  }
  const Kmax = Math.max(...nOptions);
  const L = nominalLayout(J, I, Kmax);
  const nat = new Float64Array(L.size);
  const centreBlock = (off: number, n: number) => {
    let m = 0;
    for (let k = 0; k < n; k++) m += nat[off + k];
    for (let k = 0; k < n; k++) nat[off + k] -= m / n;
  };
  for (let j = 0; j < J; j++) {
    nat[L.theta + j] = rng.normal();
    nat[L.s + j] = flags.sharpness ? Math.exp(0.3 * rng.normal()) : 1;
    for (let k = 0; k < Kmax; k++) {
      if (flags.position) nat[L.delta + j * Kmax + k] = 0.4 * rng.normal();
      if (flags.fallback) nat[L.rho + j * Kmax + k] = rng.normal();
    }
    centreBlock(L.delta + j * Kmax, Kmax);
    centreBlock(L.rho + j * Kmax, Kmax);
  }
  for (let i = 0; i < I; i++) {
    for (let k = 0; k < nOptions[i]; k++) {
      nat[L.a + i * Kmax + k] = k === key[i] ? 1.2 + 0.4 * rng.normal() : -0.3 + 0.6 * rng.normal();
      nat[L.c + i * Kmax + k] = rng.normal();
    }
    centreBlock(L.a + i * Kmax, nOptions[i]);
    centreBlock(L.c + i * Kmax, nOptions[i]);
  }
  if (flags.fallback) {
    const gate = SIMULATED_GATES[opts.gate ?? 'open'];
    nat[L.w0] = gate.w0;
    nat[L.kappa] = gate.kappa;
  }
  const bt = allBtilde(nat, L, nOptions, key);
  const obs = new Float32Array(J * I * Kmax);
  const observed = new Uint8Array(J * I);
  const p = new Float64Array(Kmax);
  const conc = opts.concentration ?? 0;
  for (let j = 0; j < J; j++) {
    for (let i = 0; i < I; i++) {
      if ((opts.missing ?? 0) > 0 && rng.next() < opts.missing!) continue;
      observed[j * I + i] = 1;
      const K = nOptions[i];
      nominalProbs(nat, L, flags, j, i, K, key[i], bt[i], p);
      if (conc > 0) {
        let sum = 0;
        for (let k = 0; k < K; k++) {
          p[k] = rng.gamma(Math.max(conc * p[k], 1e-3));
          sum += p[k];
        }
        for (let k = 0; k < K; k++) p[k] /= sum;
      }
      if (opts.oneHot) drawOneHot(p, K, rng.next());
      for (let k = 0; k < K; k++) obs[(j * I + i) * Kmax + k] = p[k];
    }
  }
  const data: Dataset = {
    J,
    I,
    Kmax,
    llmIds: Array.from({ length: J }, (_, j) => `llm-${j}`),
    itemIds: Array.from({ length: I }, (_, i) => `item-${i}`),
    benchmarks: Array.from({ length: I }, (_, i) => `bench-${i % 3}`),
    nOptions,
    key,
    obs,
    observed,
    leakage: new Float32Array(J * I),
    sources: [
      {
        file: 'simulated',
        format: 'wide',
        valueKind: 'prob',
        valueKindReason: 'simulated',
        rows: J * I,
      },
    ],
    warnings: [],
  };
  return { data, truth: nat, layout: L };
}

/** Replaces p[0..K) by the one-hot vector of the option that u ∈ [0, 1) falls in. */
export function drawOneHot(p: Float64Array, K: number, u: number): void {
  let pick = K - 1;
  let acc = 0;
  for (let k = 0; k < K; k++) {
    acc += p[k];
    if (u < acc) {
      pick = k;
      break;
    }
  }
  for (let k = 0; k < K; k++) p[k] = k === pick ? 1 : 0;
}
