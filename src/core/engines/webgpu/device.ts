/** Device-level helpers of the WebGPU engine: the default device, workgroup sizes, kernel compilation. */

const floorPow2 = (x: number) => 2 ** Math.floor(Math.log2(Math.max(1, x)));
const ceilPow2 = (x: number) => 2 ** Math.ceil(Math.log2(Math.max(1, x)));

/** Workgroup size: a power of two near `want`, within the device's limits for `width` floats per thread. */
export function workgroupSize(device: GPUDevice, want: number, width: number): number {
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

/**
 * A device of `adapter` with the adapter's own buffer limits, not the spec's
 * defaults (128 MiB a binding, 256 MiB a buffer): fewer, larger chunks of
 * cells on a real GPU (plan.ts).
 */
export function deviceOf(adapter: GPUAdapter): Promise<GPUDevice> {
  const { maxStorageBufferBindingSize, maxBufferSize } = adapter.limits;
  return adapter.requestDevice({ requiredLimits: { maxStorageBufferBindingSize, maxBufferSize } });
}

/** A device of the default adapter. */
export async function requestDevice(): Promise<GPUDevice> {
  const gpu = (globalThis as { navigator?: Navigator }).navigator?.gpu;
  if (!gpu) throw new Error('WebGPU is not available (navigator.gpu is missing)');
  const adapter = await gpu.requestAdapter();
  if (!adapter) throw new Error('WebGPU is available but no adapter was found');
  return deviceOf(adapter);
}

/** Compiles one kernel, turning WGSL errors into an Error with the compiler's messages. */
export async function compile(device: GPUDevice, code: string, label: string) {
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

/** Dispatches `n` workgroups, folded into two dimensions past the per-dimension limit. */
export function dispatch(device: GPUDevice, pass: GPUComputePassEncoder, n: number): void {
  const x = Math.min(n, device.limits.maxComputeWorkgroupsPerDimension);
  pass.dispatchWorkgroups(x, Math.ceil(n / x));
}
