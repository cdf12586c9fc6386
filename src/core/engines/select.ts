import { createFusedEngine } from './fused';
import type { Engine, EngineChoice, EngineName, Problem } from './types';

/** What the environment offers for GPU compute, as probed by `probeEnvironment`. */
export interface EngineEnvironment {
  /** The WebGPU adapter's identity; null or absent without WebGPU. */
  webgpuAdapter?: {
    isFallbackAdapter?: boolean;
    vendor?: string;
    architecture?: string;
    description?: string;
  } | null;
  /** WebGL2's (unmasked) renderer; null or absent without WebGL2. */
  webgl2?: { renderer?: string } | null;
  /** Running under Node (CLI), where only the CPU backends exist. */
  inNode: boolean;
}

export interface EngineResolved {
  name: EngineName;
  /** A sentence for the user saying why this engine was picked. */
  reason: string;
}

/**
 * Software rasterisers that browsers substitute for a missing or blocklisted
 * GPU. They expose WebGPU/WebGL but run on the CPU, far slower than the fused
 * CPU engine (SwiftShader WebGPU measured ~700× slower).
 */
const SOFTWARE = /swiftshader|llvmpipe|softpipe|lavapipe|software|microsoft basic/i;

function softwareName(...ids: (string | undefined)[]): string | null {
  for (const id of ids) {
    const m = id && SOFTWARE.exec(id);
    if (m)
      return /swiftshader/i.test(id!)
        ? 'SwiftShader'
        : /llvmpipe|lavapipe/i.test(id!)
          ? 'llvmpipe'
          : m[0];
  }
  return null;
}

const SLOW = 'a software fallback, ~700x slower than the CPU loop';
/** The engine `auto` falls back to on the CPU, as the reasons name it. */
const CPU = 'WASM CPU engine';

/**
 * Resolves an engine choice. `auto` takes webgpu-fused only on a hardware
 * WebGPU adapter, then tfjs-webgl only on a hardware WebGL2 renderer, else
 * the CPU engine (always in Node): `wasm`, the fused loss in a WebAssembly SIMD
 * kernel, measured ~3-5x faster per pass than the JS `fused` loop (which stays
 * selectable by name, and which `wasm` itself runs where its kernel does not
 * apply or WebAssembly SIMD is missing). Explicit choices are honoured as is.
 */
export function resolveEngine(choice: EngineChoice, env: EngineEnvironment): EngineResolved {
  if (choice !== 'auto') return { name: choice, reason: `${choice} engine chosen explicitly` };
  if (env.inNode) {
    return {
      name: 'wasm',
      reason: `Running under Node without a GPU backend; using the ${CPU}`,
    };
  }
  const notes: string[] = [];
  const gpu = env.webgpuAdapter;
  if (gpu) {
    const soft = softwareName(gpu.vendor, gpu.architecture, gpu.description);
    if (!gpu.isFallbackAdapter && !soft) {
      const id = [gpu.vendor, gpu.architecture].filter(Boolean).join(' ') || 'a hardware GPU';
      return {
        name: 'webgpu-fused',
        reason: `WebGPU adapter is ${id}; using the fused WebGPU engine`,
      };
    }
    notes.push(`WebGPU adapter is ${soft ?? 'a fallback adapter'} (${SLOW})`);
  } else {
    notes.push('WebGPU is not available');
  }
  const gl = env.webgl2;
  if (gl?.renderer) {
    const soft = softwareName(gl.renderer);
    if (!soft) {
      return {
        name: 'tfjs-webgl',
        reason: `${notes[0]}; WebGL2 renders on ${gl.renderer}; using the tfjs WebGL engine`,
      };
    }
    notes.push(`WebGL2 renders with ${soft} (software)`);
  } else {
    notes.push(
      gl ? 'the WebGL2 renderer is hidden, so it may be software' : 'WebGL2 is not available',
    );
  }
  return { name: 'wasm', reason: `${notes.join(' and ')}; using the ${CPU}` };
}

type Gpu = {
  requestAdapter(): Promise<GpuAdapter | null>;
};
type GpuInfo = {
  vendor?: string;
  architecture?: string;
  description?: string;
  isFallbackAdapter?: boolean;
};
type GpuAdapter = {
  isFallbackAdapter?: boolean;
  info?: GpuInfo;
  requestAdapterInfo?: () => Promise<GpuInfo>;
};

/** Resolves to `fallback` if `p` has not settled within `ms` (a hung driver must not hang the worker). */
function within<T>(p: Promise<T>, ms: number, fallback: T): Promise<T> {
  return Promise.race([p, new Promise<T>((resolve) => setTimeout(() => resolve(fallback), ms))]);
}

async function probeWebGpu(): Promise<EngineEnvironment['webgpuAdapter']> {
  const gpu = (globalThis as { navigator?: { gpu?: Gpu } }).navigator?.gpu;
  if (!gpu) return null;
  const adapter = await gpu.requestAdapter();
  if (!adapter) return null;
  // `info` is current; `requestAdapterInfo()` is what older Chrome versions have.
  const info = adapter.info ?? (await adapter.requestAdapterInfo?.()) ?? {};
  return {
    // Newer spec versions moved the flag from the adapter onto its info.
    isFallbackAdapter: adapter.isFallbackAdapter ?? info.isFallbackAdapter ?? false,
    vendor: info.vendor,
    architecture: info.architecture,
    description: info.description,
  };
}

// The little of OffscreenCanvas and WebGL2 the probe reads: the core compiles without the DOM lib.
interface Gl2 {
  getExtension(name: 'WEBGL_debug_renderer_info'): { UNMASKED_RENDERER_WEBGL: number } | null;
  getExtension(name: 'WEBGL_lose_context'): { loseContext(): void } | null;
  getParameter(p: number): unknown;
}
type Canvas = new (w: number, h: number) => { getContext(kind: 'webgl2'): Gl2 | null };

function probeWebGl2(): EngineEnvironment['webgl2'] {
  const OffscreenCanvas = (globalThis as { OffscreenCanvas?: Canvas }).OffscreenCanvas;
  if (!OffscreenCanvas) return null;
  const gl = new OffscreenCanvas(1, 1).getContext('webgl2');
  if (!gl) return null;
  try {
    const ext = gl.getExtension('WEBGL_debug_renderer_info');
    const renderer = ext ? gl.getParameter(ext.UNMASKED_RENDERER_WEBGL) : undefined;
    return { renderer: typeof renderer === 'string' ? renderer : undefined };
  } finally {
    // Contexts are a scarce resource (browsers cap them at ~16 per page).
    gl.getExtension('WEBGL_lose_context')?.loseContext();
  }
}

/**
 * Probes WebGPU and WebGL2 in a browser window or worker (or reports Node).
 * Never throws: anything that fails counts as not available.
 */
export async function probeEnvironment(): Promise<EngineEnvironment> {
  const { process } = globalThis as { process?: { versions?: { node?: string } } };
  const inNode = typeof process?.versions?.node === 'string';
  if (inNode) return { inNode, webgpuAdapter: null, webgl2: null };
  const webgpuAdapter = await within(
    probeWebGpu().catch(() => null),
    3000,
    null,
  );
  let webgl2: EngineEnvironment['webgl2'];
  try {
    webgl2 = probeWebGl2();
  } catch {
    webgl2 = null;
  }
  return { inNode, webgpuAdapter, webgl2 };
}

/**
 * Creates the named engine. The tfjs engines are imported on demand, so code
 * that only uses the fused engine never loads tfjs.
 */
export async function createEngine(problem: Problem, name: EngineName): Promise<Engine> {
  if (name === 'fused') return createFusedEngine(problem);
  if (name === 'wasm') {
    const { createWasmEngine } = await import('./wasm/engine');
    return createWasmEngine(problem);
  }
  if (name === 'webgpu-fused') {
    const { createWebGpuEngine } = await import('./webgpu/engine');
    return createWebGpuEngine(problem);
  }
  const { createTfjsEngine } = await import('./tfjs/engine');
  const backend = name.slice('tfjs-'.length) as 'webgpu' | 'webgl' | 'wasm' | 'cpu';
  return createTfjsEngine(problem, backend);
}
