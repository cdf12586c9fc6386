import * as tf from '@tensorflow/tfjs-core';

/**
 * Small tensor helpers shared by the nominal and binary losses. Every helper
 * avoids −Infinity and large negative masking constants: WebGL and WebGPU run
 * in float32 (sometimes with fast-math), where `−1e9 + x` or `0 · −Inf` turn
 * into NaN or silently lose the valid entries.
 */

/** Gathers rows of a parameter tensor for every cell; autodiff-able. */
export type RowGather = (x: tf.Tensor, idx: tf.Tensor1D, idx2d: tf.Tensor2D | null) => tf.Tensor;

/** tf.gather with its built-in gradient (UnsortedSegmentSum); the fast one on WebGL. */
export const gatherSegment: RowGather = (x, idx) => tf.gather(x, idx);

/**
 * tf.gather whose gradient is a ScatterNd (which sums duplicate indices): one
 * O(cells) pass on cpu, wasm and WebGPU. The wasm backend has no
 * UnsortedSegmentSum kernel, so the built-in gradient of gather throws there.
 */
export const gatherScatter: RowGather = (x, idx, idx2d) => {
  if (!idx2d) throw new Error('gatherScatter needs [n, 1] indices');
  const shape = x.shape;
  const op = tf.customGrad((...args) => ({
    value: tf.gather(args[0] as tf.Tensor, idx),
    gradFunc: (dy: tf.Tensor) => tf.scatterND(idx2d, dy, shape),
  }));
  return op(x);
};

/**
 * Row maximum over the last axis, keeping dims, with a zero gradient. Used as
 * the shift of a log-sum-exp, whose value and gradient do not depend on the
 * shift; zero gradient saves backprop work and avoids tie-splitting noise.
 */
export function maxNoGrad(x: tf.Tensor): tf.Tensor {
  const op = tf.customGrad((...args) => {
    const xIn = args[0] as tf.Tensor;
    return { value: tf.max(xIn, -1, true), gradFunc: () => tf.zerosLike(xIn) };
  });
  return op(x);
}

/**
 * log Σ_k mask_k exp(x_k) over the last axis (keeping dims), with the masked
 * exponentials e = mask·exp(x − m) and their sum z (so e / z is the masked
 * softmax), for a 0/1 float `mask` with at least one 1 per row. Masked-out
 * entries are replaced by the row's masked mean before the max, so padded
 * garbage can neither raise the shift (underflowing every valid term) nor
 * overflow in exp; the replacement gets zero gradient through the mask.
 */
export function maskedLogSumExp(
  x: tf.Tensor,
  mask: tf.Tensor,
): { lse: tf.Tensor; e: tf.Tensor; z: tf.Tensor } {
  const mean = tf.div(tf.sum(tf.mul(x, mask), -1, true), tf.sum(mask, -1, true));
  const xf = tf.add(tf.mul(x, mask), tf.mul(mean, tf.sub(1, mask)));
  const m = maxNoGrad(xf);
  const e = tf.mul(tf.exp(tf.sub(xf, m)), mask);
  const z = tf.sum(e, -1, true);
  return { lse: tf.add(m, tf.log(z)), e, z };
}
