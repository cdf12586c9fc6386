import type { Cells } from '../../model/cells';
import type { NominalFlags, NominalLayout } from '../../model/types';
import { btilde } from '../../model/btilde';
import { addBtildeGradient, nominalCE } from '../fusedNominal';
import { evaluateFused } from '../fused';
import type { Engine, Problem } from '../types';
import { instantiateKernel, type CellArgs, type KernelExports, type LayoutArgs } from './kernel';

/** Bytes of scratch the kernels need: z, v and e of two cells (a pair) for up to 256 options. */
const SCRATCH = 6 * 2048;
/** Zero bytes after every array, so a masked padding lane never reads past memory. */
const PAD = 16;
const PAGE = 65536;
/** Cells per kernel call. */
const CHUNK = 8192;
/** Cells per call of the JS loop where the kernel cannot take a gate (2.6 MB of targets at Kmax 10). */
const JS_CELLS = 1 << 16;
/**
 * The kernel takes the gate's e^−y, y = α_j + β_i (α_j = w0 − κθ_j, β_i = κb̃_i),
 * as a product e^−α'_j · e^−β'_i with α' = α − m and β' = β + m, m the middle of
 * the α range (see kernel.wat). α' then lies within ±ALPHA_HALF whatever w0 is;
 * an evaluation whose α range is wider (κ above about 100 at a θ spread of 6) runs
 * the JS loop.
 */
const ALPHA_HALF = 300;
/**
 * Up to this |β'| the kernel takes e^−β' (finite and normal), and the product is
 * e^−y to a few ulps or over/underflows where Math.exp(−y) does in nominalCE.
 * Beyond it every y of that item lies beyond ±(700 − ALPHA_HALF) = ±400
 * (`gateFactor`).
 */
const GATE_LIMIT = 700;

/**
 * The kernel's factor e^−β' for an item's shifted gate argument β'. Beyond
 * ±GATE_LIMIT: 0 for β' > 700, where every y ≥ 400 and G = 1 exactly (as in
 * nominalCE: e^−400 is far below half an ulp of 1); +∞ for β' < −700, where
 * every y ≤ −400, so G = 0 in the kernel against nominalCE's G < 2e-174 (and
 * G(1 − G) likewise): a difference far below any tolerance the engines are held
 * to. NaN for NaN.
 */
export function gateFactor(beta: number): number {
  if (Math.abs(beta) <= GATE_LIMIT) return Math.exp(-beta);
  if (beta > GATE_LIMIT) return 0;
  if (beta < -GATE_LIMIT) return Infinity;
  return NaN;
}

/**
 * An evaluator of the CE and gradient, synchronous once created. `coarse`: the
 * caller accepts float32 round-off (the kernel's `option32`), where the engine
 * has it; otherwise, and by default, the evaluation is float64 throughout.
 */
export type Evaluate = (nat: Float64Array, grad: Float64Array | null, coarse?: boolean) => number;

/** Whether the WASM kernel covers a problem: the nominal family on the option channel. */
export function wasmCovers(problem: Problem): boolean {
  return problem.kind === 'nominal' && (problem.channel ?? 'option') === 'option';
}

/** The per-cell arrays of cells [at, at + n) of a problem: what a shard is sent in batches. */
export type CellsPart = Pick<Cells, 'n' | 'cellJ' | 'cellI' | 'target' | 'correct'>;

/** An evaluator whose cells are copied in a batch at a time, then finished. */
export interface EvaluateBuilder {
  /** Copies `part` in as the cells from `at` on. */
  fill(at: number, part: CellsPart): void;
  /** The evaluator, once every cell is in. */
  finish(): Evaluate;
}

/**
 * The nominal option-channel CE on the WASM kernel. The cells are copied into
 * the instance's linear memory (by `fill`, in one batch or many); each call
 * copies `nat` in and the gradient out. b̃ (for the fallback gate) and its chain
 * rule are per item, not per cell, so they stay in TypeScript exactly as in
 * `nominalCE`. Of `cells` only the sizes and per-item arrays are read.
 *
 * The evaluator keeps no per-cell array of the caller's (only its own copy of
 * the correctness targets): a shard worker streams its cells in batches straight
 * into the instance's memory and never holds them twice. The rare evaluation the
 * kernel cannot take (`ALPHA_HALF`) runs the JS loop on that memory, the same
 * float32 values, a chunk of cells at a time.
 */
export async function wasmNominalBuilder(
  L: NominalLayout,
  flags: NominalFlags,
  cells: CellsShape,
): Promise<EvaluateBuilder> {
  const k = await instantiateKernel();
  // Only these fields: `cells` may be a whole Cells, which the evaluator must not keep.
  const { n, I, J, Kmax, nOptions, key } = cells;
  const shape: CellsShape = { n, I, J, Kmax, nOptions, key };
  const plan = planMemory(L, shape);
  if (plan.bytes > 2 ** 32 - PAGE)
    throw new Error(`${plan.bytes} bytes do not fit a 32-bit WASM memory`);
  const have = k.memory.buffer.byteLength;
  if (plan.bytes > have) k.memory.grow(Math.ceil((plan.bytes - have) / PAGE));
  const { Kt } = plan;
  const buf = k.memory.buffer;
  const mem: InMemory = {
    cellJ: new Uint32Array(buf, plan.pJ, n),
    cellI: new Uint32Array(buf, plan.pI, n),
    targets: new Float32Array(buf, plan.pT, n * Kt),
    correct: new Float32Array(n),
  };
  new Uint8Array(buf, plan.pK, I).set(nOptions);
  return {
    fill(at, part) {
      if (at < 0 || at + part.n > n) throw new Error(`cells ${at}–${at + part.n} of ${n}`);
      mem.cellJ.set(part.cellJ, at);
      mem.cellI.set(part.cellI, at);
      mem.correct.set(part.correct, at);
      for (let q = 0; q < part.n; q++) {
        const K = nOptions[part.cellI[q]];
        mem.targets.set(part.target.subarray(q * Kmax, q * Kmax + K), (at + q) * Kt);
      }
    },
    finish: () => wasmNominalEvaluate(k, L, flags, shape, mem, plan),
  };
}

/** What the kernel needs of `Cells` besides the per-cell arrays. */
type CellsShape = Omit<Cells, keyof CellsPart> & { n: number };

/** The cells in the instance's memory (the targets with stride Kt), and the correctness targets. */
interface InMemory {
  cellJ: Uint32Array;
  cellI: Uint32Array;
  targets: Float32Array;
  correct: Float32Array;
}

/** Byte offsets of the kernel's arrays in its memory, in order, and the bytes in all. */
function planMemory(L: NominalLayout, { n, I, J, Kmax }: CellsShape) {
  let top = 0;
  const take = (bytes: number) => {
    const at = top;
    top += Math.ceil((bytes + PAD) / 16) * 16;
    return at;
  };
  // Targets with a stride Kt of Kmax rounded up to 4, zero beyond each cell's K (see kernel.wat).
  const Kt = (Kmax + 3) & ~3;
  const plan = {
    Kt,
    pScr: take(SCRATCH),
    pJ: take(n * 4),
    pI: take(n * 4),
    pT: take(n * Kt * 4),
    pK: take(I),
    pBt: take(I * 8),
    pEa: take(J * 8),
    pEb: take(I * 8),
    pGbt: take(I * 8),
    pNat: take(L.size * 8),
    pGrad: take(L.size * 8),
    pNat32: take(L.size * 4),
    pGrad32: take(L.size * 4),
  };
  return { ...plan, bytes: top };
}

/** The evaluator over cells already in the instance's memory (`wasmNominalBuilder`). */
function wasmNominalEvaluate(
  k: KernelExports,
  L: NominalLayout,
  flags: NominalFlags,
  shape: CellsShape,
  mem: InMemory,
  plan: ReturnType<typeof planMemory>,
): Evaluate {
  const { n, I, J, Kmax, nOptions, key } = shape;
  const { pScr, pJ, pI, pT, pK, pBt, pEa, pEb, pGbt, pNat, pGrad, pNat32, pGrad32, Kt } = plan;
  const buf = k.memory.buffer;
  const bt = new Float64Array(buf, pBt, I);
  const ea = new Float64Array(buf, pEa, J);
  const eb = new Float64Array(buf, pEb, I);
  const gbt = new Float64Array(buf, pGbt, I);
  const natW = new Float64Array(buf, pNat, L.size);
  const gradW = new Float64Array(buf, pGrad, L.size);
  const nat32 = new Float32Array(buf, pNat32, L.size);
  const grad32 = new Float32Array(buf, pGrad32, L.size);
  // The blocks whose gradient the float32 kernel accumulates in float32.
  const blocks32 = [L.delta, L.w0] as const;
  const scratch = new Float64Array(Kmax);
  const flagBits = (flags.sharpness ? 1 : 0) | (flags.position ? 2 : 0) | (flags.fallback ? 4 : 0);
  // The items these cells touch (a shard holds a share of them): b̃ only for those.
  const items: number[] = [];
  for (let q = 0; q < n; q++)
    if (q === 0 || mem.cellI[q] !== mem.cellI[q - 1]) items.push(mem.cellI[q]);
  /**
   * b̃ and the gate's factors, centred (see ALPHA_HALF); false if the α range is
   * too wide for the kernel (or not finite).
   */
  const gate = (nat: Float64Array): boolean => {
    const w0 = nat[L.w0];
    const kappa = nat[L.kappa];
    let lo = Infinity;
    let hi = -Infinity;
    for (let j = 0; j < J; j++) {
      const alpha = w0 - kappa * nat[L.theta + j];
      lo = Math.min(lo, alpha);
      hi = Math.max(hi, alpha);
    }
    if (!((hi - lo) / 2 <= ALPHA_HALF)) return false;
    const m = (lo + hi) / 2;
    for (let j = 0; j < J; j++) ea[j] = Math.exp(-(w0 - kappa * nat[L.theta + j] - m));
    const a = nat.subarray(L.a);
    const c = nat.subarray(L.c);
    for (const i of items) {
      bt[i] = btilde(a, c, i * Kmax, nOptions[i], key[i], scratch);
      eb[i] = gateFactor(kappa * bt[i] + m);
      if (Number.isNaN(eb[i])) return false;
    }
    return true;
  };
  const layoutArgs: LayoutArgs = [
    pBt,
    pEa,
    pEb,
    pGbt,
    pScr,
    L.theta,
    L.s,
    L.delta,
    L.rho,
    L.a,
    L.c,
    L.w0,
    L.kappa,
  ];
  /** One kernel call on cells [q0, q0 + m). */
  const call = (q0: number, m: number, g: number, coarse: boolean) => {
    // prettier-ignore
    const cellArgs: CellArgs = [
      m, Kmax, flagBits, g, pJ + 4 * q0, pI + 4 * q0, pT + 4 * q0 * Kt, pK, pNat, pGrad,
    ];
    return coarse
      ? k.option32(...cellArgs, pNat32, pGrad32, ...layoutArgs)
      : k.option(...cellArgs, ...layoutArgs);
  };
  /**
   * The JS loop over the cells in the instance's memory, JS_CELLS at a time: the
   * same float32 targets, copied back to stride Kmax a chunk at a time, so this
   * rare evaluation never holds a second copy of all the cells.
   */
  const viaJs = (nat: Float64Array, grad: Float64Array | null): number => {
    const part = grad ? new Float64Array(grad.length) : null;
    if (grad) grad.fill(0);
    const target = new Float32Array(Math.min(n, JS_CELLS) * Kmax);
    let ce = 0;
    for (let q0 = 0; q0 < n; q0 += JS_CELLS) {
      const m = Math.min(JS_CELLS, n - q0);
      const cellI = mem.cellI.subarray(q0, q0 + m);
      target.fill(0);
      for (let q = 0; q < m; q++) {
        const at = (q0 + q) * Kt;
        target.set(mem.targets.subarray(at, at + nOptions[cellI[q]]), q * Kmax);
      }
      const cellJ = mem.cellJ.subarray(q0, q0 + m);
      const correct = mem.correct.subarray(q0, q0 + m);
      const chunk = { J, I, Kmax, n: m, cellJ, cellI, target, correct, nOptions, key };
      ce += nominalCE(nat, part, L, flags, chunk);
      if (grad && part) for (let p = 0; p < grad.length; p++) grad[p] += part[p];
    }
    return ce;
  };
  return (nat, grad, coarse = false) => {
    if (flags.fallback && !gate(nat)) return viaJs(nat, grad);
    natW.set(nat);
    if (coarse) nat32.set(nat);
    if (grad) {
      gradW.fill(0);
      gbt.fill(0);
      if (coarse) grad32.fill(0);
    }
    // In chunks of cells: V8 first runs WASM in its baseline tier and moves a
    // function to the optimising tier between calls, so one call over all cells
    // would run the whole first pass unoptimised.
    let ce = 0;
    for (let q0 = 0; q0 < n; q0 += CHUNK)
      ce += call(q0, Math.min(CHUNK, n - q0), grad ? 1 : 0, coarse);
    if (grad) {
      grad.set(gradW);
      if (coarse) for (let q = blocks32[0]; q < blocks32[1]; q++) grad[q] = grad32[q];
      if (flags.fallback) addBtildeGradient(nat, grad, gbt, L, nOptions, key, scratch);
    }
    return ce;
  };
}

/** The nominal option-channel CE on the WASM kernel over `cells`, copied in at once. */
export async function createWasmNominal(
  L: NominalLayout,
  flags: NominalFlags,
  cells: Cells,
): Promise<Evaluate> {
  const b = await wasmNominalBuilder(L, flags, cells);
  b.fill(0, cells);
  return b.finish();
}

/**
 * The WASM kernel's builder for `problem` (whose cells' per-cell arrays need not
 * be there yet), or, where the kernel does not apply, why the JS fused loop runs
 * it instead. The kernel implements only the nominal family's 'option' channel
 * (what every fit uses); the binary family and the 'binary' and 'wrong' channels
 * (held-out θ scoring) run the fused TypeScript loop. So does everything when the
 * runtime lacks WebAssembly SIMD or the data set does not fit a 32-bit memory.
 */
export async function wasmBuilderFor(problem: Problem): Promise<EvaluateBuilder | string> {
  if (!wasmCovers(problem) || problem.kind !== 'nominal')
    return 'the JS fused loop: the WASM kernel covers only the nominal option channel';
  try {
    return await wasmNominalBuilder(problem.layout, problem.flags, problem.cells);
  } catch (e) {
    return `the JS fused loop: WASM unavailable (${(e as Error).message})`;
  }
}

/** An evaluator for any problem: the WASM kernel where it applies (`wasmBuilderFor`). */
export async function createWasmEvaluate(
  problem: Problem,
): Promise<{ evaluate: Evaluate; detail?: string; float32?: boolean }> {
  const b = await wasmBuilderFor(problem);
  if (typeof b === 'string')
    return { evaluate: (nat, grad) => evaluateFused(problem, nat, grad), detail: b };
  b.fill(0, problem.cells);
  return { evaluate: b.finish(), float32: true };
}

/**
 * The WASM engine: the fused loss and gradient in a WebAssembly SIMD kernel,
 * single-threaded (see createWasmEvaluate for what falls back to the JS loop).
 */
export async function createWasmEngine(problem: Problem): Promise<Engine> {
  const { evaluate, detail, float32 } = await createWasmEvaluate(problem);
  return {
    name: 'wasm',
    ...(detail ? { detail } : {}),
    float32: float32 === true,
    async evaluate(nat, grad, coarse) {
      return evaluate(nat, grad, coarse);
    },
    dispose() {},
  };
}
