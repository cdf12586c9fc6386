import type { Cells } from '../../model/cells';
import type { NominalFlags, NominalLayout } from '../../model/types';
import { btilde } from '../../model/btilde';
import { addBtildeGradient, nominalCE } from '../fusedNominal';
import { evaluateFused } from '../fused';
import type { Engine, Problem } from '../types';
import { instantiateKernel, type CellArgs, type LayoutArgs } from './kernel';

/** Bytes of scratch the kernels need: z, v and e of two cells (a pair) for up to 256 options. */
const SCRATCH = 6 * 2048;
/** Zero bytes after every array, so a masked padding lane never reads past memory. */
const PAD = 16;
const PAGE = 65536;
/** Cells per kernel call. */
const CHUNK = 8192;
/**
 * The kernel takes the gate's e^−y as e^−α_j · e^−β_i (see kernel.wat); beyond
 * this |α| or |β| a product could overflow, and that evaluation runs the JS loop.
 */
const GATE_LIMIT = 300;

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

/**
 * The nominal option-channel CE on the WASM kernel. The cells are copied into
 * the instance's linear memory once, here; each call copies `nat` in and the
 * gradient out. b̃ (for the fallback gate) and its chain rule are per item, not
 * per cell, so they stay in TypeScript exactly as in `nominalCE`.
 */
export async function createWasmNominal(
  L: NominalLayout,
  flags: NominalFlags,
  cells: Cells,
): Promise<Evaluate> {
  const k = await instantiateKernel();
  const { n, I, Kmax } = cells;
  let top = 0;
  const take = (bytes: number) => {
    const at = top;
    top += Math.ceil((bytes + PAD) / 16) * 16;
    return at;
  };
  const pScr = take(SCRATCH);
  const pJ = take(n * 4);
  const pI = take(n * 4);
  // Targets with a stride Kt of Kmax rounded up to 4, zero beyond each cell's K (see kernel.wat).
  const Kt = (Kmax + 3) & ~3;
  const pT = take(n * Kt * 4);
  const pK = take(I);
  const pBt = take(I * 8);
  const pEa = take(cells.J * 8);
  const pEb = take(I * 8);
  const pGbt = take(I * 8);
  const pNat = take(L.size * 8);
  const pGrad = take(L.size * 8);
  const pNat32 = take(L.size * 4);
  const pGrad32 = take(L.size * 4);
  if (top > 2 ** 32 - PAGE) throw new Error(`${top} bytes do not fit a 32-bit WASM memory`);
  const have = k.memory.buffer.byteLength;
  if (top > have) k.memory.grow(Math.ceil((top - have) / PAGE));
  const buf = k.memory.buffer;
  new Uint32Array(buf, pJ, n).set(cells.cellJ);
  new Uint32Array(buf, pI, n).set(cells.cellI);
  const tW = new Float32Array(buf, pT, n * Kt);
  for (let q = 0; q < n; q++) {
    const K = cells.nOptions[cells.cellI[q]];
    tW.set(cells.target.subarray(q * Kmax, q * Kmax + K), q * Kt);
  }
  new Uint8Array(buf, pK, I).set(cells.nOptions);
  const bt = new Float64Array(buf, pBt, I);
  const ea = new Float64Array(buf, pEa, cells.J);
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
  const { nOptions, key } = cells;
  // The items these cells touch (a shard holds a share of them): b̃ only for those.
  const items: number[] = [];
  for (let q = 0; q < n; q++)
    if (q === 0 || cells.cellI[q] !== cells.cellI[q - 1]) items.push(cells.cellI[q]);
  /** b̃ and the gate's exponentials; false if a gate argument is out of the kernel's range. */
  const gate = (nat: Float64Array): boolean => {
    const w0 = nat[L.w0];
    const kappa = nat[L.kappa];
    const a = nat.subarray(L.a);
    const c = nat.subarray(L.c);
    for (const i of items) {
      bt[i] = btilde(a, c, i * Kmax, nOptions[i], key[i], scratch);
      const beta = kappa * bt[i];
      if (!(Math.abs(beta) <= GATE_LIMIT)) return false;
      eb[i] = Math.exp(-beta);
    }
    for (let j = 0; j < cells.J; j++) {
      const alpha = w0 - kappa * nat[L.theta + j];
      if (!(Math.abs(alpha) <= GATE_LIMIT)) return false;
      ea[j] = Math.exp(-alpha);
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
  return (nat, grad, coarse = false) => {
    if (flags.fallback && !gate(nat)) return nominalCE(nat, grad, L, flags, cells);
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

/**
 * An evaluator for any problem: the WASM kernel where it covers the problem,
 * otherwise the JS fused loop. The kernel implements only the nominal family's
 * 'option' channel (what every fit uses); the binary family and the 'binary' and
 * 'wrong' channels (held-out θ scoring) run the fused TypeScript loop. So does
 * everything when the runtime lacks WebAssembly SIMD or the data set does not fit
 * a 32-bit memory.
 */
export async function createWasmEvaluate(
  problem: Problem,
): Promise<{ evaluate: Evaluate; detail?: string; float32?: boolean }> {
  if (!wasmCovers(problem) || problem.kind !== 'nominal') {
    return {
      evaluate: (nat, grad) => evaluateFused(problem, nat, grad),
      detail: 'the JS fused loop: the WASM kernel covers only the nominal option channel',
    };
  }
  try {
    return {
      evaluate: await createWasmNominal(problem.layout, problem.flags, problem.cells),
      float32: true,
    };
  } catch (e) {
    return {
      evaluate: (nat, grad) => evaluateFused(problem, nat, grad),
      detail: `the JS fused loop: WASM unavailable (${(e as Error).message})`,
    };
  }
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
