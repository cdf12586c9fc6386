import { KERNEL_WASM_BASE64 } from './kernel.bytes';

/**
 * Loading the WebAssembly kernel (kernel.wat, assembled into kernel.bytes.ts by
 * scripts/build-wasm.mjs). The bytes are inlined as base64, so Node (vitest, the
 * CLI, bench), the Vite app and its Web Workers load it the same way, with no
 * fetch or file read. The core compiles without the DOM lib, so the little of
 * the WebAssembly API used here is declared below.
 */

interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

interface WasmApi {
  compile(bytes: Uint8Array): Promise<object>;
  instantiate(module: object, imports?: object): Promise<{ exports: object }>;
}

/** What kernel.wat exports. Addresses are byte offsets into `memory`. */
export interface KernelExports {
  memory: WasmMemory;
  /** The kernel's e^x on one number (for tests of its stated bound). */
  exp(x: number): number;
  /** The kernel's ln x on one number (for tests of its stated bound). */
  log(x: number): number;
  /** The float32 kernel's e^x on one number (for tests of its stated bound). */
  exp32(x: number): number;
  /** The float32 kernel's ln x on one number (for tests of its stated bound). */
  log32(x: number): number;
  /** CE of cells [0, n) on the option channel; see kernel.wat for the arguments. */
  option(...args: [...CellArgs, ...LayoutArgs]): number;
  /**
   * The same CE in float32 arithmetic (see kernel.wat for what stays float64):
   * `option`'s arguments plus a float32 copy of nat and a float32 gradient.
   */
  option32(...args: [...CellArgs, pNat32: number, pGrad32: number, ...LayoutArgs]): number;
  /** The margin gate's f and G of cells [0, n) (kernel.wat, "marginFwd"). */
  marginFwd(...args: [...MarginCells, ...MarginOffsets, pF: number, pG: number]): void;
  /** The margin gate's chain rule from each cell's ∂CE/∂y, added into the gradient ("marginBwd"). */
  marginBwd(
    ...args: [...MarginCells, pGrad: number, ...MarginOffsets, pF: number, pGy: number]
  ): void;
}

/** The margin kernels' leading arguments: the cells, the items' K and keys, and nat. */
type MarginCells = [
  n: number,
  Kmax: number,
  pJ: number,
  pI: number,
  pK: number,
  pKey: number,
  pNat: number,
];

/** The layout offsets the margin kernels read: θ, a, c, w0, κ. */
type MarginOffsets = [oTheta: number, oA: number, oC: number, oW0: number, oKappa: number];

/** The kernels' leading arguments: the cells, and where nat and its gradient lie. */
export type CellArgs = [
  n: number,
  Kmax: number,
  flags: number,
  wantGrad: number,
  pJ: number,
  pI: number,
  pT: number,
  pK: number,
  pNat: number,
  pGrad: number,
];

/** The kernels' trailing arguments: the gate's arrays, scratch, and the layout's offsets. */
export type LayoutArgs = [
  pBt: number,
  pEa: number,
  pEb: number,
  pGbt: number,
  pScr: number,
  oTheta: number,
  oS: number,
  oDelta: number,
  oRho: number,
  oA: number,
  oC: number,
  oW0: number,
  oKappa: number,
];

function wasmApi(): WasmApi | undefined {
  return (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
}

/** Whether this runtime has WebAssembly at all (SIMD is checked by compiling). */
export function hasWebAssembly(): boolean {
  return wasmApi() !== undefined;
}

function decodeBase64(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

let compiled: Promise<object> | null = null;

/**
 * A fresh instance of the kernel, with its own memory. The module is compiled
 * once per thread; rejects where WebAssembly or its SIMD proposal is missing.
 */
export async function instantiateKernel(): Promise<KernelExports> {
  const api = wasmApi();
  if (!api) throw new Error('WebAssembly is not available');
  compiled ??= api.compile(decodeBase64(KERNEL_WASM_BASE64));
  const instance = await api.instantiate(await compiled);
  return instance.exports as KernelExports;
}
