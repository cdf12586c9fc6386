import type { Cells } from '../../model/cells';
import type { NominalFlags, NominalLayout } from '../../model/types';
import { btilde } from '../../model/btilde';
import { addBtildeGradient } from '../fusedNominal';
import { evaluateFused } from '../fused';
import type { Engine, Problem } from '../types';
import type { SweepCells } from '../sweep';
import { instantiateKernel, type CellArgs, type KernelExports, type LayoutArgs } from './kernel';

/** Bytes of scratch the kernels need: z, v and e of two cells (a pair) for up to 256 options. */
const SCRATCH = 6 * 2048;
/** Zero bytes after every array, so a masked padding lane never reads past memory. */
const PAD = 16;
const PAGE = 65536;
/** Cells per kernel call. */
const CHUNK = 8192;
/**
 * The kernel takes the gate's e^−y, y = α_j + β_i (α_j = w0 − κθ_j, β_i = κb̃_i),
 * as a product e^−α'_j · e^−β'_i with α' = α − m and β' = β + m, m the middle of
 * the α range (see kernel.wat), so α' lies within ±h, h the half-width of the α
 * range, whatever w0 is. Up to GATE_LIMIT a factor is e^−v, finite and normal,
 * and the product is e^−y to a few ulps or over/underflows where Math.exp(−y)
 * does in nominalCE. An evaluation whose h exceeds it (κ above about 230 at a θ
 * spread of 6), or with an item `gateFactor` cannot take, passes α_j and β_i
 * themselves under DIRECT_GATE: the kernel then takes one more exp per cell.
 */
const GATE_LIMIT = 700;
/**
 * Where σ(y) = 1/(1 + e^−y) is settled: 1 exactly in float64 for y ≥ hi (e^−40 is
 * far below half an ulp of 1); below 2e-174 for y ≤ lo, where the kernel takes 0.
 */
const SAT = { lo: -400, hi: 40 } as const;
/** The kernel's flag (bit 3) for gate arguments passed as α_j, β_i (kernel.wat, $expNeg). */
const DIRECT_GATE = 8;
/**
 * The kernel's flag (bit 4) for a per-cell gate, the margin gate (model/gate.ts):
 * G of each cell is passed in, and each cell's ∂CE/∂y (y = w0 − κ f_i(θ_j)) comes
 * back; the kernel's "marginFwd" and "marginBwd" compute the margin and its
 * chain rule (`marginCells`).
 */
const CELL_GATE = 16;

/**
 * The kernel's factor e^−β' for an item's shifted gate argument β', given the
 * half-width h of the shifted α range. Beyond ±GATE_LIMIT: 0 where every
 * y = α' + β' ≥ SAT.hi (G = 1 exactly, as in nominalCE); +∞ where every
 * y ≤ SAT.lo (G = 0 against nominalCE's G < 2e-174, and G(1 − G) likewise: far
 * below any tolerance the engines are held to). NaN otherwise (DIRECT_GATE).
 */
export function gateFactor(beta: number, h: number): number {
  if (Math.abs(beta) <= GATE_LIMIT) return Math.exp(-beta);
  if (beta > GATE_LIMIT && beta - h >= SAT.hi) return 0;
  if (beta < -GATE_LIMIT && beta + h <= SAT.lo) return Infinity;
  return NaN;
}

/**
 * An evaluator of the CE and gradient, synchronous once created. `coarse`: the
 * caller accepts float32 round-off (the kernel's `option32`), where the engine
 * has it; otherwise, and by default, the evaluation is float64 throughout.
 */
export type Evaluate = (nat: Float64Array, grad: Float64Array | null, coarse?: boolean) => number;

/**
 * Whether the kernel's float32 path serves `problem`'s mixed-precision fits: not
 * with the margin gate. There, on the demo econ-reading file, the λ search's
 * fits at λ 2 and 4 ended elsewhere with float32 early passes (held-out loss
 * 0.34544 and 0.35384 against float64's 0.34525 and 0.35223), so λ (1.48 against
 * 1.54) and the objective (0.8%) moved; every evaluation is float64 there.
 */
export function wasmFloat32(problem: Problem): boolean {
  return !(problem.kind === 'nominal' && problem.flags.fallback && problem.flags.gate === 'margin');
}

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
  /**
   * The cells as the builder holds them (views, not copies) and the stride of
   * their targets: what a shard sweeps for the curvature (curvature.ts).
   */
  held(): { cells: SweepCells; stride: number };
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
 * into the instance's memory and never holds them twice. Every gate runs in the
 * kernel (`GATE_LIMIT`, DIRECT_GATE).
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
  const plan = planMemory(L, shape, flags.fallback && flags.gate === 'margin');
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
    // The memory does not grow after the plan's growth above, so these views stay valid.
    held: () => ({
      cells: { n, J, nOptions, key, cellJ: mem.cellJ, cellI: mem.cellI, target: mem.targets },
      stride: Kt,
    }),
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

/**
 * Byte offsets of the kernel's arrays in its memory, in order, and the bytes in
 * all. `cellGate`: room for the margin gate's per-cell G (then ∂CE/∂y) and f (CELL_GATE).
 */
function planMemory(L: NominalLayout, { n, I, J, Kmax }: CellsShape, cellGate: boolean) {
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
    // The margin gate's G per cell, which the option kernel overwrites with ∂CE/∂y
    // (it reads a cell's G before it stores the cell's ∂CE/∂y); f per cell; the keys.
    pCg: take(cellGate ? n * 8 : 0),
    pCf: take(cellGate ? n * 8 : 0),
    pKey: take(cellGate ? I : 0),
  };
  return { ...plan, pCgt: plan.pCg, bytes: top };
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
  const cellGate = flags.fallback && flags.gate === 'margin';
  const cells = cellGate ? marginCells(k, L, shape, plan) : null;
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
   * b̃ and the gate's factors, centred (see GATE_LIMIT), for the kernel; where
   * they cannot be formed, α_j and β_i themselves and the kernel's "direct" flag
   * (DIRECT_GATE), under which it takes e^−(α_j + β_i) per cell. Returns the flag.
   */
  const gate = (nat: Float64Array): number => {
    const w0 = nat[L.w0];
    const kappa = nat[L.kappa];
    let lo = Infinity;
    let hi = -Infinity;
    for (let j = 0; j < J; j++) {
      ea[j] = w0 - kappa * nat[L.theta + j];
      lo = Math.min(lo, ea[j]);
      hi = Math.max(hi, ea[j]);
    }
    const a = nat.subarray(L.a);
    const c = nat.subarray(L.c);
    for (const i of items) {
      bt[i] = btilde(a, c, i * Kmax, nOptions[i], key[i], scratch);
      eb[i] = kappa * bt[i];
    }
    const h = (hi - lo) / 2;
    const m = (lo + hi) / 2;
    if (!(h <= GATE_LIMIT)) return DIRECT_GATE;
    for (const i of items) {
      eb[i] = gateFactor(kappa * bt[i] + m, h);
      if (Number.isNaN(eb[i])) {
        for (const i2 of items) eb[i2] = kappa * bt[i2];
        return DIRECT_GATE;
      }
    }
    for (let j = 0; j < J; j++) ea[j] = Math.exp(-(ea[j] - m));
    return 0;
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
  const call = (q0: number, m: number, g: number, coarse: boolean, direct: number) => {
    // prettier-ignore
    const cellArgs: CellArgs = [
      m, Kmax, flagBits | direct, g, pJ + 4 * q0, pI + 4 * q0, pT + 4 * q0 * Kt, pK, pNat, pGrad,
    ];
    // Under the per-cell gate, pEa and pGbt point at this chunk's G and ∂CE/∂y.
    const args: LayoutArgs = cells
      ? // prettier-ignore
        [pBt, plan.pCg + 8 * q0, pEb, plan.pCgt + 8 * q0, pScr, L.theta, L.s, L.delta, L.rho, L.a, L.c, L.w0, L.kappa]
      : layoutArgs;
    return coarse
      ? k.option32(...cellArgs, pNat32, pGrad32, ...args)
      : k.option(...cellArgs, ...args);
  };
  return (nat, grad, coarseAsked = false) => {
    // The margin gate runs float64 only (wasmFloat32).
    const coarse = coarseAsked && !cells;
    natW.set(nat);
    if (cells) cells.forward();
    const direct = cells ? CELL_GATE : flags.fallback ? gate(nat) : 0;
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
      ce += call(q0, Math.min(CHUNK, n - q0), grad ? 1 : 0, coarse, direct);
    if (grad) {
      if (cells) cells.backward();
      grad.set(gradW);
      if (coarse) for (let q = blocks32[0]; q < blocks32[1]; q++) grad[q] = grad32[q];
      if (!cells && flags.fallback) addBtildeGradient(nat, grad, gbt, L, nOptions, key, scratch);
    }
    return ce;
  };
}

/**
 * The margin gate's per-cell side of the kernel (CELL_GATE), on the kernel's
 * "marginFwd" and "marginBwd" (kernel.wat): `forward` writes each cell's
 * G = σ(w0 − κ f_i(θ_j)) where the option kernel reads it, keeping f;
 * `backward` takes the option kernel's per-cell ∂CE/∂y (y = w0 − κ f), which it
 * stored over G, through w0, κ, θ_j and f's item parameters into the kernel's
 * gradient, as nominalCE does (model/gate.ts `margin`). Both in chunks of cells,
 * as the option kernel (V8's tiers). Two floats a cell: f, and G then ∂CE/∂y.
 */
function marginCells(
  k: KernelExports,
  L: NominalLayout,
  shape: CellsShape,
  plan: ReturnType<typeof planMemory>,
) {
  const { n, Kmax, key } = shape;
  new Uint8Array(k.memory.buffer, plan.pKey, shape.I).set(key);
  const offsets = [L.theta, L.a, L.c, L.w0, L.kappa] as const;
  return {
    forward() {
      for (let q0 = 0; q0 < n; q0 += CHUNK) {
        const at = (p: number) => p + 8 * q0;
        // prettier-ignore
        k.marginFwd(
          Math.min(CHUNK, n - q0), Kmax, plan.pJ + 4 * q0, plan.pI + 4 * q0, plan.pK, plan.pKey,
          plan.pNat, ...offsets, at(plan.pCf), at(plan.pCg),
        );
      }
    },
    backward() {
      for (let q0 = 0; q0 < n; q0 += CHUNK) {
        const at = (p: number) => p + 8 * q0;
        // prettier-ignore
        k.marginBwd(
          Math.min(CHUNK, n - q0), Kmax, plan.pJ + 4 * q0, plan.pI + 4 * q0, plan.pK, plan.pKey,
          plan.pNat, plan.pGrad, ...offsets, at(plan.pCf), at(plan.pCgt),
        );
      }
    },
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
 * What runs a problem's cells: the WASM kernel's builder, or the JS fused loop
 * with the reason (shown as the engine's detail, so a fallback is never silent).
 */
export type WasmBuild =
  { kind: 'wasm'; builder: EvaluateBuilder } | { kind: 'fused'; reason: string };

/**
 * The WASM kernel's builder for `problem` (whose cells' per-cell arrays need not
 * be there yet), or, where the kernel does not apply, why the JS fused loop runs
 * it instead. The kernel implements only the nominal family's 'option' channel
 * (what every fit uses); the binary family and the 'binary' and 'wrong' channels
 * (held-out θ scoring) run the fused TypeScript loop. So does everything when the
 * runtime lacks WebAssembly SIMD or the data set does not fit a 32-bit memory.
 */
export async function wasmBuilderFor(problem: Problem): Promise<WasmBuild> {
  if (!wasmCovers(problem) || problem.kind !== 'nominal')
    return {
      kind: 'fused',
      reason: 'the JS fused loop: the WASM kernel covers only the nominal option channel',
    };
  try {
    const builder = await wasmNominalBuilder(problem.layout, problem.flags, problem.cells);
    return { kind: 'wasm', builder };
  } catch (e) {
    return {
      kind: 'fused',
      reason: `the JS fused loop: WASM unavailable (${(e as Error).message})`,
    };
  }
}

/** An evaluator for any problem: the WASM kernel where it applies (`wasmBuilderFor`). */
export async function createWasmEvaluate(
  problem: Problem,
): Promise<{ evaluate: Evaluate; detail?: string; float32?: boolean }> {
  const b = await wasmBuilderFor(problem);
  if (b.kind === 'fused')
    return { evaluate: (nat, grad) => evaluateFused(problem, nat, grad), detail: b.reason };
  b.builder.fill(0, problem.cells);
  return { evaluate: b.builder.finish(), float32: wasmFloat32(problem) };
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
