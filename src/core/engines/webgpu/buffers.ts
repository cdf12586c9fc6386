import type { ChunkSizing, GpuChunk } from './plan';

/**
 * The WebGPU engine's buffers: the cells, uploaded once per chunk, the
 * parameter uploads, the outputs and their staging copies, and the bind groups
 * that tie them to the two kernels (binding order as in shaders.ts).
 */

/** Creates buffers on one device and remembers them, to destroy them all at once. */
export class BufferPool {
  private readonly created: GPUBuffer[] = [];

  constructor(private readonly device: GPUDevice) {}

  /** A buffer of at least `size` bytes (rounded up to 4, at least 16), filled with `data` if given. */
  create(size: number, usage: number, data?: Uint32Array | Float32Array): GPUBuffer {
    const b = this.device.createBuffer({
      size: Math.max(16, Math.ceil(size / 4) * 4),
      usage,
      mappedAtCreation: !!data,
    });
    this.created.push(b);
    if (data) {
      if (data instanceof Uint32Array) new Uint32Array(b.getMappedRange()).set(data);
      else new Float32Array(b.getMappedRange()).set(data);
      b.unmap();
    }
    return b;
  }

  destroyAll(): void {
    for (const b of this.created) b.destroy();
  }
}

/** What evaluate needs of one chunk once its cells live on the GPU. */
export interface ChunkGpu {
  /** First global item of the chunk. */
  item0: number;
  nItems: number;
  /** The uniform block (nItems, needGrad, accumulate). */
  params: GPUBuffer;
  itemParams: GPUBuffer;
  /** The float32 item parameters, staged here before each upload. */
  itemParamData: Float32Array;
  itemOut: GPUBuffer;
  itemStaging: GPUBuffer;
  itemBind: GPUBindGroup;
  llmBind: GPUBindGroup;
}

export interface EngineBuffers {
  llmParams: GPUBuffer;
  llmOut: GPUBuffer;
  llmStaging: GPUBuffer;
  chunks: ChunkGpu[];
}

const bindings = (bufs: GPUBuffer[]): GPUBindGroupEntry[] =>
  bufs.map((b, binding) => ({ binding, resource: { buffer: b } }));

/**
 * Uploads the planned chunks and creates every buffer and bind group of the
 * engine in `pool`. The per-cell records are shared by all chunks (sized for
 * the largest); the LLM output accumulates across chunks.
 */
export function createEngineBuffers(
  device: GPUDevice,
  pool: BufferPool,
  o: {
    J: number;
    plans: readonly GpuChunk[];
    kernels: { item: GPUComputePipeline; llm: GPUComputePipeline };
    sizing: Omit<ChunkSizing, 'maxBytes'>;
    llmSize: number;
  },
): EngineBuffers {
  const S = GPUBufferUsage;
  const { J, plans, kernels, llmSize } = o;
  const { recordWidth, itemParamWidth, itemOutWidth } = o.sizing;
  const llmParams = pool.create(4 * llmSize, S.STORAGE | S.COPY_DST);
  const maxCells = Math.max(0, ...plans.map((p) => p.nCells));
  const records = pool.create(4 * maxCells * recordWidth, S.STORAGE);
  const llmOut = pool.create(4 * J * recordWidth, S.STORAGE | S.COPY_SRC);
  const llmStaging = pool.create(4 * J * recordWidth, S.MAP_READ | S.COPY_DST);
  const chunks = plans.map((plan): ChunkGpu => {
    const nItems = plan.item1 - plan.item0;
    const params = pool.create(16, S.UNIFORM | S.COPY_DST);
    const itemParamData = new Float32Array(nItems * itemParamWidth);
    const itemParams = pool.create(4 * itemParamData.length, S.STORAGE | S.COPY_DST);
    const items = pool.create(4 * plan.items.length, S.STORAGE, plan.items);
    const cellJ = pool.create(4 * plan.cellJ.length, S.STORAGE, plan.cellJ);
    const target = pool.create(4 * plan.target.length, S.STORAGE, plan.target);
    const byLlm = pool.create(4 * plan.byLlm.length, S.STORAGE, plan.byLlm);
    const itemOut = pool.create(4 * nItems * itemOutWidth, S.STORAGE | S.COPY_SRC);
    const itemStaging = pool.create(4 * nItems * itemOutWidth, S.MAP_READ | S.COPY_DST);
    const itemBind = device.createBindGroup({
      layout: kernels.item.getBindGroupLayout(0),
      entries: bindings([params, llmParams, itemParams, items, cellJ, target, records, itemOut]),
    });
    const llmBind = device.createBindGroup({
      layout: kernels.llm.getBindGroupLayout(0),
      entries: bindings([params, byLlm, records, llmOut]),
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
  return { llmParams, llmOut, llmStaging, chunks };
}
