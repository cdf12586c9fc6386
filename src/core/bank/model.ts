/**
 * One LLM's response model on bank items: the full LLM-NRM cell distribution
 * (eq. 13, with the LLM's s, δ, ρ and the gate) or the binary IRF, and its
 * Fisher information in θ. This is what adaptive testing selects on.
 */
import { OPTION_LABELS } from '../data/types';
import { binaryItemOf } from '../fit/info';
import type { BinaryItem } from '../model/itemfns';
import { binaryInfoAt, binaryProbAt } from '../model/itemfns';
import { btilde } from '../model/btilde';
import { gateDistance, gateOf } from '../model/gate';
import { sigmoid } from '../model/math';
import { eq13Logits, softmaxInPlace } from '../model/nominal';
import { isBinary, nominalFlags, type NominalFlags, type NominalModel } from '../model/types';
import type { ItemBank } from './bank';

/** An LLM's own terms: sharpness s, positional bias δ and fallback logits ρ (over Kmax). */
export interface LlmTerms {
  s: number;
  delta: number[];
  rho: number[];
}

/** A bank item ready for evaluation. */
export interface ModelItem {
  id: string;
  K: number;
  key: number;
  a: Float64Array;
  c: Float64Array;
  /** b̃ (eq. 10, guarded), recomputed from a, c and the key (eq. 10's gate reads it). */
  bt: number;
  /** Binary models only. */
  bin?: BinaryItem;
}

/** A bank compiled for evaluation. `flags` is null for binary models. */
export interface ResponseModel {
  bank: ItemBank;
  flags: NominalFlags | null;
  /** The gate's scratch (the margin's distractor weights), Kmax long. */
  gateScratch: Float64Array;
  w0: number;
  kappa: number;
  Kmax: number;
  items: ModelItem[];
  index: Map<string, number>;
}

export function responseModel(bank: ItemBank): ResponseModel {
  const binary = isBinary(bank.model);
  const flags = binary ? null : nominalFlags(bank.model as NominalModel, gateOf(bank));
  const w = new Float64Array(bank.Kmax);
  const items = bank.items.map((it): ModelItem => {
    const key = OPTION_LABELS.indexOf(it.key as (typeof OPTION_LABELS)[number]);
    const K = it.nOptions;
    if (binary) {
      const none = new Float64Array(0);
      return { id: it.id, K, key, a: none, c: none, bt: it.b, bin: binaryItemOf(it) };
    }
    const a = Float64Array.from(it.a!);
    const c = Float64Array.from(it.c!);
    return { id: it.id, K, key, a, c, bt: btilde(a, c, 0, K, key, w) };
  });
  return {
    bank,
    flags,
    gateScratch: new Float64Array(bank.Kmax),
    w0: flags?.fallback ? bank.global.w0 : 0,
    kappa: flags?.fallback ? bank.global.kappa : 0,
    Kmax: bank.Kmax,
    items,
    index: new Map(items.map((it, i) => [it.id, i])),
  };
}

/** s = 1, δ = ρ = 0: the reference LLM (and the CAT's start). */
export function neutralTerms(Kmax: number): LlmTerms {
  return { s: 1, delta: new Array(Kmax).fill(0), rho: new Array(Kmax).fill(0) };
}

/**
 * The gate G of a nominal model with the fallback at θ on an item, in the
 * bank's form (model/gate.ts), and dG/dθ = −κ G (1 − G) d'(θ), with d = θ − b̃
 * (eq. 10, d' = 1) or the item's margin f(θ) (d' = f'(θ)).
 */
export function itemGate(
  m: ResponseModel,
  it: ModelItem,
  theta: number,
): { G: number; dG: number } {
  const f = m.flags!;
  if (!f.fallback) return { G: 0, dG: 0 };
  const row = { a: it.a, c: it.c, off: 0, K: it.K, g: it.key };
  const { d, dTheta } = gateDistance(f.gate, theta, it.bt, row, m.gateScratch);
  const G = sigmoid(m.w0 - m.kappa * d);
  return { G, dG: -m.kappa * G * (1 - G) * dTheta };
}

/**
 * Logits z_k and their θ-derivatives z'_k of the LLM-NRM for one LLM on one
 * item (into z, dz); returns the gate G. With v_k = a_k θ + c_k + δ_k and
 * G = σ(w0 − κ d(θ)) (`itemGate`): z_k = (1 − G) s v_k + G ρ_k, so
 * z'_k = (1 − G) s a_k + G'(θ)(ρ_k − s v_k).
 */
export function nominalLogits(
  m: ResponseModel,
  it: ModelItem,
  theta: number,
  t: LlmTerms,
  z: Float64Array,
  dz: Float64Array,
): number {
  const f = m.flags!;
  const s = f.sharpness ? t.s : 1;
  const { G, dG } = itemGate(m, it, theta);
  const cell = { theta, s, G, a: it.a, c: it.c, delta: t.delta, rho: t.rho };
  eq13Logits(f, cell, it.K, z, { out: dz, dG });
  return G;
}

/** The LLM's response distribution on the item (binary: [1 − P, P] over wrong/right). */
export function responseProbs(
  m: ResponseModel,
  it: ModelItem,
  theta: number,
  t: LlmTerms,
): Float64Array {
  if (it.bin) {
    const P = binaryProbAt(it.bin, theta);
    return Float64Array.of(1 - P, P);
  }
  const p = new Float64Array(it.K);
  nominalLogits(m, it, theta, t, p, new Float64Array(it.K));
  softmaxInPlace(p, it.K);
  return p;
}

/**
 * Fisher information in θ of the LLM's response to the item,
 * I(θ) = Σ_k p_k (∂ log p_k / ∂θ)² = Σ_k p_k (z'_k − Σ p z')², under the full
 * model (gate, s, δ, ρ included). Binary items: P'² / (P(1 − P)).
 */
export function responseInfo(
  m: ResponseModel,
  it: ModelItem,
  theta: number,
  t: LlmTerms,
  scratch?: { z: Float64Array; dz: Float64Array },
): number {
  if (it.bin) return binaryInfoAt(it.bin, theta);
  const z = scratch?.z ?? new Float64Array(it.K);
  const dz = scratch?.dz ?? new Float64Array(it.K);
  nominalLogits(m, it, theta, t, z, dz);
  softmaxInPlace(z, it.K);
  let mean = 0;
  for (let k = 0; k < it.K; k++) mean += z[k] * dz[k];
  let info = 0;
  for (let k = 0; k < it.K; k++) info += z[k] * (dz[k] - mean) ** 2;
  return info;
}
