import * as tf from '@tensorflow/tfjs-core';
import { BTILDE_EPS, type BinaryModel, type Channel, type NominalFlags } from '../../model/types';
import { maskedLogSumExp, type RowGather } from './ops';

/**
 * The cross-entropy of one chunk as a tensor function of the parameters, for
 * tfjs autodiff. A chunk holds `rows` items, each padded to `width` cell slots
 * (see layout.ts), so item parameters broadcast over slots and only the LLM
 * parameters need a gather. Both functions return the loss per row [rows]: the
 * caller sums rows in float64, since one float32 sum over millions of cells
 * drifts by up to a percent.
 */

/** Uploaded, read-only tensors of one chunk. */
export interface ChunkTensors {
  rows: number;
  width: number;
  /** LLM index per slot, [rows·width] int32 (0 in padding). */
  jIdx: tf.Tensor1D;
  /** The same as [rows·width, 1], for the ScatterNd gradient; null when unused. */
  jIdx2d: tf.Tensor2D | null;
  /** Nominal (option, wrong channels): targets [rows, width, Kmax], zero in padded slots and options. */
  target?: tf.Tensor3D;
  /** Nominal: 1 for valid options [rows, Kmax]. */
  optMask?: tf.Tensor2D;
  /** Nominal: one-hot key [rows, Kmax]. */
  keyHot?: tf.Tensor2D;
  /** Binary, and the nominal binary channel: correctness target [rows, width]. */
  y?: tf.Tensor2D;
  /** With `y`: 1 for observed slots, 0 for padding [rows, width]. */
  weight?: tf.Tensor2D;
}

/** Parameters by name: LLM blocks are global, item blocks hold this chunk's rows. */
export type Params = Record<string, tf.Tensor>;

/** LLM parameter x ([J] or [J, Kmax]) per slot: [rows, width, 1] or [rows, width, Kmax]. */
function perSlot(x: tf.Tensor, ch: ChunkTensors, gather: RowGather): tf.Tensor {
  const g = gather(x, ch.jIdx, ch.jIdx2d);
  const tail = x.rank === 1 ? 1 : x.shape[1]!;
  return tf.reshape(g, [ch.rows, ch.width, tail]);
}

/**
 * b̃ per item, [rows, 1], from a, c [rows, Kmax] (btilde.ts, smooth guard
 * num·den/(den² + ε²)).
 */
export function btildeTensor(
  a: tf.Tensor,
  c: tf.Tensor,
  optMask: tf.Tensor,
  keyHot: tf.Tensor,
): tf.Tensor {
  const dMask = tf.sub(optMask, keyHot);
  const cKey = tf.sum(tf.mul(c, keyHot), -1, true);
  const aKey = tf.sum(tf.mul(a, keyHot), -1, true);
  const { lse, e, z } = maskedLogSumExp(c, dMask);
  const num = tf.sub(lse, cKey);
  const aBar = tf.div(tf.sum(tf.mul(e, a), -1, true), z);
  const den = tf.sub(aKey, aBar);
  return tf.div(tf.mul(num, den), tf.add(tf.square(den), BTILDE_EPS * BTILDE_EPS));
}

/**
 * The margin f_i(θ_j) (eq. 8; model/gate.ts) per slot, [rows, width, 1], from
 * the raw utilities r = a θ + c [rows, width, Kmax]: r_key − log Σ_{k≠key} e^{r_k}.
 */
export function marginTensor(r: tf.Tensor, optMask: tf.Tensor, keyHot: tf.Tensor): tf.Tensor {
  const dMask = tf.expandDims(tf.sub(optMask, keyHot), 1);
  const rKey = tf.sum(tf.mul(r, tf.expandDims(keyHot, 1)), -1, true);
  return tf.sub(rKey, maskedLogSumExp(r, dMask).lse);
}

/**
 * Logits of the nominal family (fusedNominal.ts), [rows, width, Kmax]:
 * z_k = (1 − G)·s·(a_k θ + c_k + δ_jk) + G·ρ_jk, G = σ(w0 − κ d) with d the
 * gate's distance in `flags.gate`'s form: θ − b̃ (eq. 10) or f_i(θ) (margin).
 * Padded options hold finite garbage; callers mask them.
 */
function nominalLogits(
  p: Params,
  ch: ChunkTensors,
  flags: NominalFlags,
  gather: RowGather,
): tf.Tensor {
  const theta = perSlot(p.theta, ch, gather);
  const r = tf.add(tf.mul(tf.expandDims(p.a, 1), theta), tf.expandDims(p.c, 1));
  const v = flags.position ? tf.add(r, perSlot(p.delta, ch, gather)) : r;
  const u = flags.sharpness ? tf.mul(perSlot(p.s, ch, gather), v) : v;
  if (!flags.fallback) return u;
  const d =
    flags.gate === 'margin'
      ? marginTensor(r, ch.optMask!, ch.keyHot!)
      : tf.sub(theta, tf.expandDims(btildeTensor(p.a, p.c, ch.optMask!, ch.keyHot!), 1));
  const G = tf.sigmoid(tf.sub(p.w0, tf.mul(p.kappa, d)));
  return tf.add(tf.mul(tf.sub(1, G), u), tf.mul(G, perSlot(p.rho, ch, gather)));
}

/** ln of the probability floor: P and 1 − P are kept within [1e-12, 1 − 1e-12]. */
const LOG_FLOOR = Math.log(1e-12);

/**
 * Nominal family cross-entropy per row, by observation channel (fusedNominal.ts):
 * - option: Σ_k t_k (lse − z_k) over valid options;
 * - wrong: the same over distractors only (t on the key is ignored);
 * - binary: −[y log P + (1 − y) log(1 − P)], P = p_key, with log P and
 *   log(1 − P) formed as differences of log-sum-exps (1 − P in float32 is 0
 *   near P = 1) and clamped at ln 1e-12 (zero gradient when clamped, as fused).
 * Expects params theta [J], a, c [rows, Kmax], and s [J], delta, rho [J, Kmax],
 * w0, kappa [] when the flags use them.
 */
export function nominalRowLoss(
  p: Params,
  ch: ChunkTensors,
  flags: NominalFlags,
  channel: Channel,
  gather: RowGather,
): tf.Tensor1D {
  const z = nominalLogits(p, ch, flags, gather);
  const optMask = tf.expandDims(ch.optMask!, 1);
  const dMask = tf.sub(optMask, tf.expandDims(ch.keyHot!, 1));
  if (channel === 'binary') {
    const { lse } = maskedLogSumExp(z, optMask);
    const { lse: lseWrong } = maskedLogSumExp(z, dMask);
    const zKey = tf.sum(tf.mul(z, tf.expandDims(ch.keyHot!, 1)), -1, true);
    const logP = tf.squeeze(tf.clipByValue(tf.sub(zKey, lse), LOG_FLOOR, 0), [2]);
    const logQ = tf.squeeze(tf.clipByValue(tf.sub(lseWrong, lse), LOG_FLOOR, 0), [2]);
    const ll = tf.add(tf.mul(ch.y!, logP), tf.mul(tf.sub(1, ch.y!), logQ));
    return tf.neg(tf.sum(tf.mul(ch.weight!, ll), 1)) as tf.Tensor1D;
  }
  const mask = channel === 'wrong' ? dMask : optMask;
  const target = channel === 'wrong' ? tf.mul(ch.target!, dMask) : ch.target!;
  const { lse } = maskedLogSumExp(z, mask);
  const tSum = tf.sum(target, -1, true);
  const cell = tf.sub(tf.mul(tSum, lse), tf.sum(tf.mul(target, z), -1, true));
  return tf.reshape(tf.sum(cell, [1, 2]), [ch.rows]);
}

/** Probabilities are kept this far from 0 and 1 inside the log-loss (fusedBinary.ts). */
const P_FLOOR = 1e-12;

/**
 * Binary family (fusedBinary.ts): P = g + (u − g)σ(aθ + d). 1 − P is formed
 * directly as (1 − u) + (u − g)σ(−aθ − d), since 1 − P in float32 is 0 for
 * P > 1 − 6e-8 and the fused engine's clamp at 1 − 1e-12 is not representable.
 * For the same reason 1 − u takes a float64 correction `uCorr` (a constant: the
 * rounding error of u in float32). Both P and 1 − P are clamped at 1e-12 (zero
 * gradient when clamped, as fused).
 * Expects theta [J]; a [] (1pl) or [rows]; d [rows]; g [rows] (3pl, 4pl);
 * u, uCorr [rows] (4pl).
 */
export function binaryRowLoss(
  p: Params,
  ch: ChunkTensors,
  model: BinaryModel,
  gather: RowGather,
): tf.Tensor1D {
  const theta = tf.reshape(gather(p.theta, ch.jIdx, ch.jIdx2d), [ch.rows, ch.width]);
  const col = (t: tf.Tensor) => tf.reshape(t, [ch.rows, 1]);
  const a = model === '1pl' ? p.a : col(p.a);
  const x = tf.add(tf.mul(a, theta), col(p.d));
  const g = model === '3pl' || model === '4pl' ? col(p.g) : tf.scalar(0);
  const u = model === '4pl' ? col(p.u) : tf.scalar(1);
  const span = tf.sub(u, g);
  const P = tf.add(g, tf.mul(span, tf.sigmoid(x)));
  const uComp = model === '4pl' ? tf.add(tf.sub(1, u), col(p.uCorr)) : tf.scalar(0);
  const Q = tf.add(uComp, tf.mul(span, tf.sigmoid(tf.neg(x))));
  const y = ch.y!;
  const ll = tf.add(
    tf.mul(y, tf.log(tf.clipByValue(P, P_FLOOR, 1))),
    tf.mul(tf.sub(1, y), tf.log(tf.clipByValue(Q, P_FLOOR, 1))),
  );
  return tf.neg(tf.sum(tf.mul(ch.weight!, ll), 1)) as tf.Tensor1D;
}
