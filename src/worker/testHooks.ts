/**
 * The worker API's test-only methods: browser benchmark runs (bench.ts) and
 * fault injection (faults.ts, stall.ts). worker.ts spreads these into its API
 * only in a test build (`vite build --mode testbuild`: the e2e tests and
 * bench/browser); the production build gets `productHooks`, which refuse, and
 * none of this code (checked in e2e/bundle.spec.ts).
 */
import type { BenchCall } from './bench';
import { armDeviceLoss, type Fault } from './faults';
import { armCheckpointStall, armLbfgsStall, armSearchStall } from './stall';

export interface TestHooks {
  /** Runs one benchmark operation (bench.ts). */
  bench(c: BenchCall): Promise<unknown>;
  /**
   * Fails on purpose so tests can exercise recovery: 'crash' throws outside any
   * call (the Worker fires 'error'); 'oom' does so with a real failed allocation;
   * 'hang' blocks this thread for good; 'device-lost' makes the next WebGPU fit
   * lose its device after its first checkpoint; 'stall-lbfgs' holds the next
   * fit at the start of its final L-BFGS phase until it is cancelled;
   * 'stall-search' holds it in its prior-strength search the same way;
   * 'stall-checkpoint' holds it after its first checkpoint (taken at its first step).
   */
  simulateFailure(kind: Fault): void;
}

export const testHooks: TestHooks = {
  bench: async (c) => (await import('./bench')).runBench(c),
  simulateFailure(kind) {
    if (kind === 'device-lost') armDeviceLoss();
    else if (kind === 'stall-lbfgs') armLbfgsStall();
    else if (kind === 'stall-search') armSearchStall();
    else if (kind === 'stall-checkpoint') armCheckpointStall();
    else if (kind === 'crash')
      setTimeout(() => {
        throw new Error('simulated crash');
      }, 0);
    else if (kind === 'oom') setTimeout(() => new ArrayBuffer(2 ** 45), 0);
    else for (;;);
  },
};
