/**
 * One-hot binary-IRT data for the checks of the psychometric tables: LLMs
 * answer the key with P = σ(a(θ − b)) and otherwise a uniformly drawn
 * distractor. Chosen items can be made to misfit (P independent of θ) or to
 * function differently for a focal group (their difficulty shifted).
 */
import { completeDataset } from '../data/complete';
import type { Dataset } from '../data/types';
import { createRng } from '../model/rng';

export interface SimulateBinaryOptions {
  J: number;
  I: number;
  K?: number;
  seed?: number;
  /** '1pl' (a = 1) or '2pl' (a ~ logN(0, 0.3²)). */
  model?: '1pl' | '2pl';
  /** Items whose responses ignore θ: P(correct) = σ(−b). */
  misfit?: readonly number[];
  /** LLMs in the focal group (DIF checks); their θ has the same distribution. */
  focal?: (j: number) => boolean;
  /** Items harder by `shift` logits for the focal group. */
  dif?: readonly number[];
  shift?: number;
}

export interface SimulatedBinary {
  data: Dataset;
  theta: Float64Array;
  a: Float64Array;
  b: Float64Array;
}

export function simulateBinary(o: SimulateBinaryOptions): SimulatedBinary {
  const rng = createRng(o.seed ?? 1);
  const { J, I } = o;
  const K = o.K ?? 4;
  const theta = Float64Array.from({ length: J }, () => rng.normal());
  const a = Float64Array.from({ length: I }, () =>
    o.model === '2pl' ? Math.exp(0.3 * rng.normal()) : 1,
  );
  const b = Float64Array.from({ length: I }, () => rng.normal());
  const key = Uint8Array.from({ length: I }, () => rng.int(K));
  const misfit = new Set(o.misfit ?? []);
  const dif = new Set(o.dif ?? []);
  const obs = new Float32Array(J * I * K);
  for (let j = 0; j < J; j++)
    for (let i = 0; i < I; i++) {
      const shift = dif.has(i) && o.focal?.(j) ? (o.shift ?? 1) : 0;
      const z = misfit.has(i) ? -b[i] : a[i] * (theta[j] - b[i] - shift);
      const pick = rng.next() < 1 / (1 + Math.exp(-z)) ? key[i] : (key[i] + 1 + rng.int(K - 1)) % K;
      obs[(j * I + i) * K + pick] = 1;
    }
  const data = completeDataset(
    obs,
    key,
    { J, I, K },
    {
      llmIds: Array.from({ length: J }, (_, j) => `llm-${j}`),
      itemIds: Array.from({ length: I }, (_, i) => `item-${i}`),
      benchmarks: Array.from({ length: I }, (_, i) => `bench-${i % 2}`),
    },
  );
  return { data, theta, a, b };
}
