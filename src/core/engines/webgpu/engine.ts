import type { Engine, Problem } from '../types';
import { planChunks, type ChunkSizing } from './plan';
import {
  BINARY_ITEM_OUT,
  binaryItemShader,
  llmShader,
  nominalItemOut,
  nominalItemShader,
  nominalRecord,
} from './shaders';

/**
 * The fused WebGPU engine: the fused CPU engine's function and analytic
 * gradient (fusedNominal.ts, fusedBinary.ts), as WGSL compute kernels in
 * float32. Cells are uploaded once; each evaluate uploads the parameters,
 * runs an item kernel and an LLM kernel per chunk of cells, and reads back one
 * row per item and per LLM. Partial sums of the loss and of the global
 * parameters' gradients (w0, κ, the 1PL slope) come back per item and are
 * added up in float64 here. See shaders.ts for the kernels.
 */

/** Rejection of an evaluate whose GPU device was lost: fall back to another engine. */
export class DeviceLostError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeviceLostError';
  }
}

export interface WebGpuEngineOptions {
  /**
   * Largest GPU buffer, in bytes (default 128 MiB, never above the device's
   * maxStorageBufferBindingSize and maxBufferSize). Smaller values force more
   * chunks; tests use that.
   */
  maxBufferBytes?: number;
}

const DEFAULT_MAX_BUFFER = 128 * 1024 * 1024;

interface ChunkGpu {
  /** First global item of the chunk. */
  item0: number;
  nItems: number;
  params: GPUBuffer;
  itemParams: GPUBuffer;
  itemParamData: Float32Array;
  itemOut: GPUBuffer;
  itemStaging: GPUBuffer;
  itemBind: GPUBindGroup;
  llmBind: GPUBindGroup;
}

const floorPow2 = (x: number) => 2 ** Math.floor(Math.log2(Math.max(1, x)));
const ceilPow2 = (x: number) => 2 ** Math.ceil(Math.log2(Math.max(1, x)));

/** Workgroup size: a power of two near `want`, within the device's limits for `width` floats per thread. */
function workgroupSize(device: GPUDevice, want: number, width: number): number {
  const lim = device.limits;
  const byStorage = Math.floor(lim.maxComputeWorkgroupStorageSize / 4 / width);
  return floorPow2(
    Math.min(
      ceilPow2(want),
      256,
      lim.maxComputeInvocationsPerWorkgroup,
      lim.maxComputeWorkgroupSizeX,
      byStorage,
    ),
  );
}

async function requestDevice(): Promise<GPUDevice> {
  const gpu = (globalThis.navigator as Navigator | undefined)?.gpu;
  if (!gpu) throw new Error('WebGPU is not available (navigator.gpu is missing)');
  const adapter = await gpu.requestAdapter();
  if (!adapter) throw new Error('WebGPU is available but no adapter was found');
  return adapter.requestDevice();
}

/**
 * Creates the WebGPU engine for `problem` on `device` (or on a device of the
 * default adapter, which the engine then owns and destroys on dispose).
 */
export async function createWebGpuEngine(
  problem: Problem,
  device?: GPUDevice,
  options: WebGpuEngineOptions = {},
): Promise<Engine> {
  const owned = !device;
  const dev = device ?? (await requestDevice());
  try {
    return await build(problem, dev, owned, options);
  } catch (e) {
    if (owned) dev.destroy();
    throw e;
  }
}

async function build(
  problem: Problem,
  device: GPUDevice,
  owned: boolean,
  options: WebGpuEngineOptions,
): Promise<Engine> {
  const { cells } = problem;
  const { J, I } = cells;
  const nominal = problem.kind === 'nominal';
  const channel = nominal ? (problem.channel ?? 'option') : 'binary';
  if (problem.layout.J !== J || problem.layout.I !== I) {
    throw new Error('problem layout and cells disagree on J or I');
  }
  if (nominal && problem.layout.Kmax !== cells.Kmax) {
    throw new Error('problem layout and cells disagree on Kmax');
  }
  const Kmax = cells.Kmax;

  // Sizes, in floats.
  const recordWidth = nominal ? nominalRecord(problem.flags, Kmax).width : 1;
  const itemOutWidth = nominal ? nominalItemOut(Kmax) : BINARY_ITEM_OUT;
  const itemParamWidth = nominal ? 2 * Kmax : 4;
  const targetWidth = channel === 'binary' ? 1 : Kmax;
  const llmSize = nominal ? problem.layout.a + 2 : J;
  const maxBytes = Math.min(
    options.maxBufferBytes ?? DEFAULT_MAX_BUFFER,
    device.limits.maxStorageBufferBindingSize,
    device.limits.maxBufferSize,
  );
  if (4 * Math.max(llmSize, J * recordWidth) > maxBytes) {
    throw new Error(`the LLM parameters do not fit in a ${maxBytes}-byte GPU buffer`);
  }
  const sizing: ChunkSizing = {
    targetWidth,
    recordWidth,
    itemParamWidth,
    itemOutWidth,
    maxBytes,
  };
  const plans = planChunks(cells, channel === 'binary' ? 'correct' : 'target', sizing);

  const wgItem = workgroupSize(device, cells.n / Math.max(1, I), itemOutWidth);
  const wgLlm = workgroupSize(device, cells.n / Math.max(1, J), recordWidth);
  const itemCode = nominal
    ? nominalItemShader({ J, Kmax, flags: problem.flags, channel, wg: wgItem })
    : binaryItemShader({ model: problem.model, wg: wgItem });
  const llmCode = llmShader({ J, width: recordWidth, wg: wgLlm });

  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('validation');
  const created: GPUBuffer[] = [];
  const buffer = (size: number, usage: number, data?: Uint32Array | Float32Array) => {
    const b = device.createBuffer({
      size: Math.max(16, Math.ceil(size / 4) * 4),
      usage,
      mappedAtCreation: !!data,
    });
    created.push(b);
    if (data) {
      const view = data instanceof Uint32Array ? new Uint32Array(b.getMappedRange()) : null;
      if (view) view.set(data);
      else new Float32Array(b.getMappedRange()).set(data);
      b.unmap();
    }
    return b;
  };
  const S = GPUBufferUsage;
  let itemPipeline: GPUComputePipeline;
  let llmPipeline: GPUComputePipeline;
  try {
    [itemPipeline, llmPipeline] = await Promise.all([
      compile(device, itemCode, 'item'),
      compile(device, llmCode, 'llm'),
    ]);
  } catch (e) {
    await device.popErrorScope();
    await device.popErrorScope();
    throw e;
  }
  const llmParams = buffer(4 * llmSize, S.STORAGE | S.COPY_DST);
  const maxCells = Math.max(0, ...plans.map((p) => p.nCells));
  const records = buffer(4 * maxCells * recordWidth, S.STORAGE);
  const llmOut = buffer(4 * J * recordWidth, S.STORAGE | S.COPY_SRC);
  const llmStaging = buffer(4 * J * recordWidth, S.MAP_READ | S.COPY_DST);
  const chunks: ChunkGpu[] = plans.map((plan) => {
    const nItems = plan.item1 - plan.item0;
    const params = buffer(16, S.UNIFORM | S.COPY_DST);
    const itemParamData = new Float32Array(nItems * itemParamWidth);
    const itemParams = buffer(4 * itemParamData.length, S.STORAGE | S.COPY_DST);
    const items = buffer(4 * plan.items.length, S.STORAGE, plan.items);
    const cellJ = buffer(4 * plan.cellJ.length, S.STORAGE, plan.cellJ);
    const target = buffer(4 * plan.target.length, S.STORAGE, plan.target);
    const byLlm = buffer(4 * plan.byLlm.length, S.STORAGE, plan.byLlm);
    const itemOut = buffer(4 * nItems * itemOutWidth, S.STORAGE | S.COPY_SRC);
    const itemStaging = buffer(4 * nItems * itemOutWidth, S.MAP_READ | S.COPY_DST);
    const entries = (bufs: GPUBuffer[]): GPUBindGroupEntry[] =>
      bufs.map((b, binding) => ({ binding, resource: { buffer: b } }));
    const itemBind = device.createBindGroup({
      layout: itemPipeline.getBindGroupLayout(0),
      entries: entries([params, llmParams, itemParams, items, cellJ, target, records, itemOut]),
    });
    const llmBind = device.createBindGroup({
      layout: llmPipeline.getBindGroupLayout(0),
      entries: entries([params, byLlm, records, llmOut]),
    });
    // The cell data now lives on the GPU; keep only what evaluate needs.
    return {
      item0: plan.item0,
      nItems,
      params,
      itemParams,
      itemParamData,
      itemOut,
      itemStaging,
      itemBind,
      llmBind,
    };
  });
  const validation = await device.popErrorScope();
  const oom = await device.popErrorScope();
  if (validation || oom) {
    for (const b of created) b.destroy();
    throw new Error(`WebGPU engine setup failed: ${(oom ?? validation)!.message}`);
  }

  let disposed = false;
  let lost: DeviceLostError | null = null;
  const lostPromise = device.lost.then((info) => {
    lost = new DeviceLostError(
      `WebGPU device lost (${info.reason}${info.message ? `: ${info.message}` : ''})`,
    );
    throw lost;
  });
  lostPromise.catch(() => {});

  const llmData = new Float32Array(llmSize);
  const uniform = new Uint32Array(4);
  const maxPerDim = device.limits.maxComputeWorkgroupsPerDimension;
  const dispatch = (pass: GPUComputePassEncoder, n: number) => {
    const x = Math.min(n, maxPerDim);
    pass.dispatchWorkgroups(x, Math.ceil(n / x));
  };

  /** Fills the float32 parameter uploads from the float64 natural vector. */
  const stageParams = (nat: Float64Array) => {
    if (problem.kind === 'nominal') {
      const L = problem.layout;
      if (nat.length !== L.size) throw new Error(`nat has ${nat.length} entries, want ${L.size}`);
      llmData.set(nat.subarray(0, L.a));
      llmData[L.a] = nat[L.w0];
      llmData[L.a + 1] = nat[L.kappa];
      for (const c of chunks) {
        const d = c.itemParamData;
        for (let t = 0; t < c.nItems; t++) {
          const off = (c.item0 + t) * Kmax;
          d.set(nat.subarray(L.a + off, L.a + off + Kmax), 2 * t * Kmax);
          d.set(nat.subarray(L.c + off, L.c + off + Kmax), (2 * t + 1) * Kmax);
        }
      }
    } else {
      const L = problem.layout;
      if (nat.length !== L.size) throw new Error(`nat has ${nat.length} entries, want ${L.size}`);
      const shared = problem.model === '1pl';
      llmData.set(nat.subarray(L.theta, L.theta + J));
      for (const c of chunks) {
        const d = c.itemParamData;
        for (let t = 0; t < c.nItems; t++) {
          const i = c.item0 + t;
          d[4 * t] = nat[L.a + (shared ? 0 : i)];
          d[4 * t + 1] = nat[L.d + i];
          d[4 * t + 2] = nat[L.g + i];
          d[4 * t + 3] = nat[L.u + i];
        }
      }
    }
  };

  /** Adds the read-back rows into `grad` (already zeroed) and returns the loss. */
  const gather = (outs: Float32Array[], llm: Float32Array | null, grad: Float64Array | null) => {
    let ce = 0;
    let g0 = 0;
    let g1 = 0;
    const W = itemOutWidth;
    chunks.forEach((c, n) => {
      const o = outs[n];
      for (let t = 0; t < c.nItems; t++) {
        const r = t * W;
        ce += o[r + W - 1];
        if (!grad) continue;
        const i = c.item0 + t;
        if (problem.kind === 'nominal') {
          const L = problem.layout;
          for (let k = 0; k < Kmax; k++) {
            grad[L.a + i * Kmax + k] = o[r + k];
            grad[L.c + i * Kmax + k] = o[r + Kmax + k];
          }
          g0 += o[r + 2 * Kmax];
          g1 += o[r + 2 * Kmax + 1];
        } else {
          const L = problem.layout;
          if (problem.model === '1pl') g0 += o[r];
          else grad[L.a + i] = o[r];
          grad[L.d + i] = o[r + 1];
          grad[L.g + i] = o[r + 2];
          grad[L.u + i] = o[r + 3];
        }
      }
    });
    if (!grad || !llm) return ce;
    if (problem.kind === 'nominal') {
      const L = problem.layout;
      const f = problem.flags;
      const R = nominalRecord(f, Kmax);
      for (let j = 0; j < J; j++) {
        const r = j * recordWidth;
        grad[L.theta + j] = llm[r];
        if (f.sharpness) grad[L.s + j] = llm[r + R.s];
        for (let k = 0; k < Kmax; k++) {
          if (f.position) grad[L.delta + j * Kmax + k] = llm[r + R.delta + k];
          if (f.fallback) grad[L.rho + j * Kmax + k] = llm[r + R.rho + k];
        }
      }
      if (f.fallback) {
        grad[L.w0] = g0;
        grad[L.kappa] = -g1;
      }
    } else {
      const L = problem.layout;
      for (let j = 0; j < J; j++) grad[L.theta + j] = llm[j];
      if (problem.model === '1pl') grad[L.a] = g0;
    }
    return ce;
  };

  const run = async (nat: Float64Array, grad: Float64Array | null): Promise<number> => {
    const wantGrad = grad !== null;
    stageParams(nat);
    const q = device.queue;
    q.writeBuffer(llmParams, 0, llmData);
    chunks.forEach((c, n) => {
      q.writeBuffer(c.itemParams, 0, c.itemParamData);
      uniform[0] = c.nItems;
      uniform[1] = wantGrad ? 1 : 0;
      uniform[2] = n > 0 ? 1 : 0;
      q.writeBuffer(c.params, 0, uniform);
    });
    device.pushErrorScope('validation');
    const enc = device.createCommandEncoder();
    const pass = enc.beginComputePass();
    for (const c of chunks) {
      pass.setPipeline(itemPipeline);
      pass.setBindGroup(0, c.itemBind);
      dispatch(pass, c.nItems);
      if (wantGrad) {
        pass.setPipeline(llmPipeline);
        pass.setBindGroup(0, c.llmBind);
        dispatch(pass, J);
      }
    }
    pass.end();
    for (const c of chunks) enc.copyBufferToBuffer(c.itemOut, 0, c.itemStaging, 0, c.itemOut.size);
    const readLlm = wantGrad && chunks.length > 0;
    if (readLlm) enc.copyBufferToBuffer(llmOut, 0, llmStaging, 0, llmOut.size);
    q.submit([enc.finish()]);
    const errorScope = device.popErrorScope();
    const staging = chunks.map((c) => c.itemStaging);
    if (readLlm) staging.push(llmStaging);
    const mapped = staging.map((b) => b.mapAsync(GPUMapMode.READ));
    // Handled here too: after a device loss the caller may have moved on (the
    // race below) and a dispose then fails these maps with no one awaiting.
    for (const m of [errorScope, ...mapped]) m.catch(() => {});
    try {
      const err = await errorScope;
      if (err) throw new Error(`WebGPU engine: ${err.message}`);
      await Promise.all(mapped);
      const outs = chunks.map(
        (c) => new Float32Array(c.itemStaging.getMappedRange(), 0, c.nItems * itemOutWidth),
      );
      const llm = readLlm
        ? new Float32Array(llmStaging.getMappedRange(), 0, J * recordWidth)
        : null;
      if (grad) grad.fill(0);
      return gather(outs, llm, grad);
    } finally {
      // Settle every map before unmapping, so none is left pending.
      await Promise.allSettled(mapped);
      for (const b of staging) if (b.mapState === 'mapped') b.unmap();
    }
  };

  // Evaluations share the staging buffers, so they run one at a time.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    name: 'webgpu-fused',
    evaluate(nat, grad) {
      if (disposed) return Promise.reject(new Error('the WebGPU engine has been disposed'));
      if (lost) return Promise.reject(lost);
      const work = queue.then(() => {
        if (lost) throw lost;
        if (disposed) throw new Error('the WebGPU engine has been disposed');
        return run(nat, grad);
      });
      queue = work.catch(() => {});
      const guarded = work.catch((e: unknown) => {
        // A lost device fails maps with an OperationError or AbortError before `lost` settles.
        if (lost) throw lost;
        const name = (e as { name?: string } | null)?.name;
        if (!disposed && (name === 'OperationError' || name === 'AbortError')) {
          throw new DeviceLostError(`WebGPU device lost: ${(e as Error).message}`);
        }
        throw e;
      });
      return Promise.race([guarded, lostPromise]);
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      for (const b of created) b.destroy();
      if (owned) device.destroy();
    },
  };
}

/** Compiles one kernel, turning WGSL errors into an Error with the compiler's messages. */
async function compile(device: GPUDevice, code: string, label: string) {
  const module = device.createShaderModule({ code, label });
  const info = await module.getCompilationInfo();
  const errors = info.messages.filter((m) => m.type === 'error');
  if (errors.length) {
    throw new Error(
      `WGSL ${label} kernel: ` +
        errors.map((m) => `${m.lineNum}:${m.linePos} ${m.message}`).join('; '),
    );
  }
  return device.createComputePipelineAsync({
    layout: 'auto',
    compute: { module, entryPoint: 'main' },
    label,
  });
}
