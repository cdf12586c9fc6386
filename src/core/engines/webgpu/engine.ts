import type { Engine, Problem } from '../types';
import { BufferPool, createEngineBuffers, type EngineBuffers } from './buffers';
import { compile, dispatch, requestDevice, workgroupSize } from './device';
import { familyLayout, type FamilyLayout } from './layout';
import { planChunks, type GpuChunk } from './plan';
import { llmShader } from './shaders';

/**
 * The fused WebGPU engine: the fused CPU engine's function and analytic
 * gradient (fusedNominal.ts, fusedBinary.ts), as WGSL compute kernels in
 * float32. Cells are uploaded once; each evaluate uploads the parameters,
 * runs an item kernel and an LLM kernel per chunk of cells, and reads back one
 * row per item and per LLM. Partial sums of the loss and of the global
 * parameters' gradients (w0, κ, the 1PL slope) come back per item and are
 * added up in float64 here. The pieces: plan.ts (cells into chunks),
 * layout.ts (what differs per model family), buffers.ts (GPU buffers and bind
 * groups), shaders.ts (the kernels), device.ts (device helpers).
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
  const family = familyLayout(problem);
  const { cells } = problem;
  const { J, I } = cells;
  const { sizing, llmSize } = family;
  const maxBytes = Math.min(
    options.maxBufferBytes ?? DEFAULT_MAX_BUFFER,
    device.limits.maxStorageBufferBindingSize,
    device.limits.maxBufferSize,
  );
  if (4 * Math.max(llmSize, J * sizing.recordWidth) > maxBytes) {
    throw new Error(`the LLM parameters do not fit in a ${maxBytes}-byte GPU buffer`);
  }
  const plans = planChunks(cells, family.source, { ...sizing, maxBytes });
  const wg = {
    item: workgroupSize(device, cells.n / Math.max(1, I), sizing.itemOutWidth),
    llm: workgroupSize(device, cells.n / Math.max(1, J), sizing.recordWidth),
  };
  const pool = new BufferPool(device);
  const gpu = await upload(device, pool, { family, plans, J, wg });
  const run = evaluator(device, family, gpu, J);
  return guard(device, owned, pool, run);
}

interface GpuState extends EngineBuffers {
  itemPipeline: GPUComputePipeline;
  llmPipeline: GPUComputePipeline;
}

/** Compiles both kernels and uploads the chunks, under error scopes that turn any failure into a throw. */
async function upload(
  device: GPUDevice,
  pool: BufferPool,
  o: { family: FamilyLayout; plans: GpuChunk[]; J: number; wg: { item: number; llm: number } },
): Promise<GpuState> {
  const { family, plans, J, wg } = o;
  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('validation');
  let itemPipeline: GPUComputePipeline;
  let llmPipeline: GPUComputePipeline;
  try {
    [itemPipeline, llmPipeline] = await Promise.all([
      compile(device, family.itemShader(wg.item), 'item'),
      compile(device, llmShader({ J, width: family.sizing.recordWidth, wg: wg.llm }), 'llm'),
    ]);
  } catch (e) {
    await device.popErrorScope();
    await device.popErrorScope();
    throw e;
  }
  const buffers = createEngineBuffers(device, pool, {
    J,
    plans,
    kernels: { item: itemPipeline, llm: llmPipeline },
    sizing: family.sizing,
    llmSize: family.llmSize,
  });
  const validation = await device.popErrorScope();
  const oom = await device.popErrorScope();
  if (validation || oom) {
    pool.destroyAll();
    throw new Error(`WebGPU engine setup failed: ${(oom ?? validation)!.message}`);
  }
  return { ...buffers, itemPipeline, llmPipeline };
}

type Run = (nat: Float64Array, grad: Float64Array | null) => Promise<number>;

/**
 * One evaluate on the GPU: stage and upload the parameters, run both kernels
 * per chunk, read back the item rows (and the LLM rows when a gradient is
 * wanted) and let the family layout turn them into the loss and gradient.
 */
function evaluator(device: GPUDevice, family: FamilyLayout, gpu: GpuState, J: number): Run {
  const { chunks, llmParams, llmOut, llmStaging } = gpu;
  const { itemOutWidth: W, recordWidth } = family.sizing;
  const llmData = new Float32Array(family.llmSize);
  const uniform = new Uint32Array(4);

  const encode = (wantGrad: boolean) => {
    const enc = device.createCommandEncoder();
    const pass = enc.beginComputePass();
    for (const c of chunks) {
      pass.setPipeline(gpu.itemPipeline);
      pass.setBindGroup(0, c.itemBind);
      dispatch(device, pass, c.nItems);
      if (wantGrad) {
        pass.setPipeline(gpu.llmPipeline);
        pass.setBindGroup(0, c.llmBind);
        dispatch(device, pass, J);
      }
    }
    pass.end();
    for (const c of chunks) enc.copyBufferToBuffer(c.itemOut, 0, c.itemStaging, 0, c.itemOut.size);
    return enc;
  };

  /** Adds the read-back rows into `grad` (already zeroed) and returns the loss. */
  const gather = (outs: Float32Array[], llm: Float32Array | null, grad: Float64Array | null) => {
    let ce = 0;
    const sums = new Float64Array(2);
    chunks.forEach((c, n) => {
      const o = outs[n];
      for (let t = 0; t < c.nItems; t++) ce += o[t * W + W - 1];
      if (grad) family.gatherItems(o, c.item0, c.nItems, grad, sums);
    });
    if (grad && llm) family.gatherLlm(llm, grad, sums);
    return ce;
  };

  return async (nat, grad) => {
    const wantGrad = grad !== null;
    family.stageLlm(nat, llmData);
    for (const c of chunks) family.stageItems(nat, c.item0, c.nItems, c.itemParamData);
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
    const enc = encode(wantGrad);
    const readLlm = wantGrad && chunks.length > 0;
    if (readLlm) enc.copyBufferToBuffer(llmOut, 0, llmStaging, 0, llmOut.size);
    q.submit([enc.finish()]);
    const errorScope = device.popErrorScope();
    const staging = chunks.map((c) => c.itemStaging);
    if (readLlm) staging.push(llmStaging);
    const mapped = staging.map((b) => b.mapAsync(GPUMapMode.READ));
    // Handled here too: after a device loss the caller may have moved on (the
    // race in guard) and a dispose then fails these maps with no one awaiting.
    for (const m of [errorScope, ...mapped]) m.catch(() => {});
    try {
      const err = await errorScope;
      if (err) throw new Error(`WebGPU engine: ${err.message}`);
      await Promise.all(mapped);
      const outs = chunks.map(
        (c) => new Float32Array(c.itemStaging.getMappedRange(), 0, c.nItems * W),
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
}

/**
 * The Engine around `run`: evaluations one at a time (they share the staging
 * buffers), a lost device turned into a DeviceLostError, dispose.
 */
function guard(device: GPUDevice, owned: boolean, pool: BufferPool, run: Run): Engine {
  let disposed = false;
  let lost: DeviceLostError | null = null;
  const lostPromise = device.lost.then((info) => {
    lost = new DeviceLostError(
      `WebGPU device lost (${info.reason}${info.message ? `: ${info.message}` : ''})`,
    );
    throw lost;
  });
  lostPromise.catch(() => {});

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
      pool.destroyAll();
      if (owned) device.destroy();
    },
  };
}
