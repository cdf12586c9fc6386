import type { Cells } from '../model/cells';
import type { CurvatureParts, ItemPrecision } from './curvature';
import type {
  BinaryLayout,
  BinaryModel,
  Channel,
  NominalFlags,
  NominalLayout,
} from '../model/types';

/** Engines a user can pick. `auto` resolves to one of the others. */
export type EngineName =
  'fused' | 'wasm' | 'webgpu-fused' | 'tfjs-webgpu' | 'tfjs-webgl' | 'tfjs-wasm' | 'tfjs-cpu';
export type EngineChoice = EngineName | 'auto';
export const ENGINE_CHOICES: readonly EngineChoice[] = [
  'auto',
  'fused',
  'wasm',
  'webgpu-fused',
  'tfjs-webgpu',
  'tfjs-webgl',
  'tfjs-wasm',
  'tfjs-cpu',
];

/** What an engine is asked to evaluate: the data and which model family. */
export type Problem =
  | { kind: 'nominal'; flags: NominalFlags; layout: NominalLayout; cells: Cells; channel?: Channel }
  | { kind: 'binary'; model: BinaryModel; layout: BinaryLayout; cells: Cells };

/**
 * A fitting engine computes the cross-entropy term of the objective,
 *   CE = −Σ_cells Σ_k target_k · log p_k   (nominal)
 *   CE = −Σ_cells [y log P + (1 − y) log(1 − P)]   (binary),
 * and its gradient with respect to the natural parameters (layouts in
 * model/types.ts). Priors, penalties and reparameterisations are not its job.
 */
export interface Engine {
  readonly name: EngineName;
  /** How it runs, when that is worth telling the user (e.g. "on 4 shard workers"). */
  readonly detail?: string;
  /** Whether `evaluate(…, coarse)` takes a float32 path (else the flag changes nothing). */
  readonly float32?: boolean;
  /**
   * CE at `nat`; when `grad` is given it is overwritten with ∂CE/∂nat. With
   * `coarse` the caller accepts float32 round-off (about 1e-7 relative per
   * cell): an engine with a float32 path may take it (the wasm engine's
   * `option32`); the others ignore the flag and evaluate as usual.
   */
  evaluate(nat: Float64Array, grad: Float64Array | null, coarse?: boolean): Promise<number>;
  /**
   * The exact curvature blocks' parts at `nat` (curvature.ts), swept where the
   * cells are: one part per shard, in item order. Only engines that spread
   * the cells over workers have it (a nominal problem under the margin gate or
   * none); otherwise the caller sweeps on its own thread.
   */
  curvature?(nat: Float64Array, prec: ItemPrecision): Promise<CurvatureParts[]>;
  /** Frees buffers and tensors. The engine is unusable afterwards. */
  dispose(): void;
}
