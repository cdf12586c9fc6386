/**
 * Fault injection for the recovery tests (e2e/faults.spec.ts): in a test build
 * only (testHooks.ts), never in the product.
 */
import type { Engine } from '../core/engines/types';
import type { EngineHandle } from '../core/fit/fit';
import { GPU_ENGINES } from './checkpoint';

export type Fault =
  'crash' | 'hang' | 'oom' | 'device-lost' | 'stall-lbfgs' | 'stall-search' | 'stall-checkpoint';

let simulatedLoss = false;

/** The next fit on a WebGPU engine loses its device just after its first checkpoint. */
export function armDeviceLoss(): void {
  simulatedLoss = true;
}

/**
 * fitWithRecovery's `faults`: `handle`, or, once armed (it disarms), a GPU
 * handle whose engine loses its device once `checkpointed()`.
 */
export function takeDeviceLoss(handle: EngineHandle, checkpointed: () => boolean): EngineHandle {
  if (!simulatedLoss || !GPU_ENGINES.includes(handle.name)) return handle;
  simulatedLoss = false;
  return losingDevice(handle, checkpointed);
}

/** Wraps a handle so its engine's evaluate rejects, as a lost device does, once `due()` is true. */
function losingDevice(handle: EngineHandle, due: () => boolean): EngineHandle {
  return {
    ...handle,
    async create(problem) {
      const engine = await handle.create(problem);
      const lossy: Engine = {
        name: engine.name,
        evaluate(nat, grad) {
          if (!due()) return engine.evaluate(nat, grad);
          const e = new Error('WebGPU device lost (simulated: destroyed)');
          e.name = 'DeviceLostError';
          return Promise.reject(e);
        },
        dispose: () => engine.dispose(),
      };
      return lossy;
    },
  };
}
