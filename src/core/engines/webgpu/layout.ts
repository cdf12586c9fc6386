import type { Problem } from '../types';
import type { ChunkSizing } from './plan';
import {
  BINARY_ITEM_OUT,
  binaryItemShader,
  nominalItemOut,
  nominalItemShader,
  nominalRecord,
} from './shaders';

/**
 * What the WebGPU engine needs to know of one model family, decided once per
 * problem: the float widths of its buffers, its item kernel, how the float64
 * natural parameter vector is staged into the float32 uploads, and how the
 * read-back rows become the gradient. The engine itself never asks which
 * family it runs.
 */
export interface FamilyLayout {
  /** Where the targets come from: the option distribution or the correctness column. */
  readonly source: 'target' | 'correct';
  /** Buffer widths in floats (per cell, per item), for planChunks. */
  readonly sizing: Omit<ChunkSizing, 'maxBytes'>;
  /** Floats of the LLM parameter upload. */
  readonly llmSize: number;
  /** The item kernel for workgroups of `wg` threads. */
  itemShader(wg: number): string;
  /** Checks `nat` and fills the LLM upload from it. */
  stageLlm(nat: Float64Array, dst: Float32Array): void;
  /** Fills the item parameter upload of items [item0, item0 + nItems). */
  stageItems(nat: Float64Array, item0: number, nItems: number, dst: Float32Array): void;
  /**
   * Writes the gradient rows of items [item0, item0 + nItems) from their
   * read-back rows `out` into `grad`, adding the global parameters' partial
   * sums into `sums` (two float64 accumulators).
   */
  gatherItems(
    out: Float32Array,
    item0: number,
    nItems: number,
    grad: Float64Array,
    sums: Float64Array,
  ): void;
  /** Writes the LLM gradient (read-back `llm`) and the global parameters' gradient. */
  gatherLlm(llm: Float32Array, grad: Float64Array, sums: Float64Array): void;
}

/** The layout of `problem`'s family; throws when its layout and cells disagree. */
export function familyLayout(problem: Problem): FamilyLayout {
  const { J, I } = problem.cells;
  if (problem.layout.J !== J || problem.layout.I !== I) {
    throw new Error('problem layout and cells disagree on J or I');
  }
  return problem.kind === 'nominal' ? nominalFamily(problem) : binaryFamily(problem);
}

const checkSize = (nat: Float64Array, size: number) => {
  if (nat.length !== size) throw new Error(`nat has ${nat.length} entries, want ${size}`);
};

/**
 * Nominal family. LLM upload: the prefix of nat (θ, s, δ, ρ), then w0, κ.
 * Item upload: a[Kmax], c[Kmax] per item. Item row: ga[Kmax], gc[Kmax],
 * Σgt, Σgt·(θ − b̃), CE. LLM row: the per-cell record (nominalRecord).
 */
function nominalFamily(problem: Extract<Problem, { kind: 'nominal' }>): FamilyLayout {
  const { cells, flags, layout: L } = problem;
  const { J, Kmax } = cells;
  if (L.Kmax !== Kmax) throw new Error('problem layout and cells disagree on Kmax');
  const channel = problem.channel ?? 'option';
  const R = nominalRecord(flags, Kmax);
  const itemOutWidth = nominalItemOut(Kmax);
  return {
    source: channel === 'binary' ? 'correct' : 'target',
    sizing: {
      targetWidth: channel === 'binary' ? 1 : Kmax,
      recordWidth: R.width,
      itemParamWidth: 2 * Kmax,
      itemOutWidth,
    },
    llmSize: L.a + 2,
    itemShader: (wg) => nominalItemShader({ J, Kmax, flags, channel, wg }),
    stageLlm(nat, dst) {
      checkSize(nat, L.size);
      dst.set(nat.subarray(0, L.a));
      dst[L.a] = nat[L.w0];
      dst[L.a + 1] = nat[L.kappa];
    },
    stageItems(nat, item0, nItems, dst) {
      for (let t = 0; t < nItems; t++) {
        const off = (item0 + t) * Kmax;
        dst.set(nat.subarray(L.a + off, L.a + off + Kmax), 2 * t * Kmax);
        dst.set(nat.subarray(L.c + off, L.c + off + Kmax), (2 * t + 1) * Kmax);
      }
    },
    gatherItems(out, item0, nItems, grad, sums) {
      for (let t = 0; t < nItems; t++) {
        const r = t * itemOutWidth;
        const i = item0 + t;
        for (let k = 0; k < Kmax; k++) {
          grad[L.a + i * Kmax + k] = out[r + k];
          grad[L.c + i * Kmax + k] = out[r + Kmax + k];
        }
        sums[0] += out[r + 2 * Kmax];
        sums[1] += out[r + 2 * Kmax + 1];
      }
    },
    gatherLlm(llm, grad, sums) {
      for (let j = 0; j < J; j++) {
        const r = j * R.width;
        grad[L.theta + j] = llm[r];
        if (flags.sharpness) grad[L.s + j] = llm[r + R.s];
        for (let k = 0; k < Kmax; k++) {
          if (flags.position) grad[L.delta + j * Kmax + k] = llm[r + R.delta + k];
          if (flags.fallback) grad[L.rho + j * Kmax + k] = llm[r + R.rho + k];
        }
      }
      if (flags.fallback) {
        grad[L.w0] = sums[0];
        grad[L.kappa] = -sums[1];
      }
    },
  };
}

/**
 * Binary family (1PL–4PL on correctness). LLM upload: θ. Item upload: a, d,
 * g, u per item (1PL: the shared a). Item row: ga, gd, gg, gu, CE. LLM row: gθ.
 */
function binaryFamily(problem: Extract<Problem, { kind: 'binary' }>): FamilyLayout {
  const { cells, model, layout: L } = problem;
  const { J } = cells;
  const shared = model === '1pl';
  return {
    source: 'correct',
    sizing: { targetWidth: 1, recordWidth: 1, itemParamWidth: 4, itemOutWidth: BINARY_ITEM_OUT },
    llmSize: J,
    itemShader: (wg) => binaryItemShader({ model, wg }),
    stageLlm(nat, dst) {
      checkSize(nat, L.size);
      dst.set(nat.subarray(L.theta, L.theta + J));
    },
    stageItems(nat, item0, nItems, dst) {
      for (let t = 0; t < nItems; t++) {
        const i = item0 + t;
        dst[4 * t] = nat[L.a + (shared ? 0 : i)];
        dst[4 * t + 1] = nat[L.d + i];
        dst[4 * t + 2] = nat[L.g + i];
        dst[4 * t + 3] = nat[L.u + i];
      }
    },
    gatherItems(out, item0, nItems, grad, sums) {
      for (let t = 0; t < nItems; t++) {
        const r = t * BINARY_ITEM_OUT;
        const i = item0 + t;
        if (shared) sums[0] += out[r];
        else grad[L.a + i] = out[r];
        grad[L.d + i] = out[r + 1];
        grad[L.g + i] = out[r + 2];
        grad[L.u + i] = out[r + 3];
      }
    },
    gatherLlm(llm, grad, sums) {
      for (let j = 0; j < J; j++) grad[L.theta + j] = llm[j];
      if (shared) grad[L.a] = sums[0];
    },
  };
}
