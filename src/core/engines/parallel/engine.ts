import type { Engine, Problem } from '../types';
import {
  shardProblem,
  shardRanges,
  type ShardKernel,
  type ShardReply,
  type ShardRequest,
} from './shard';

/** The part of a Worker (web or worker_threads, adapted) the parallel engine needs. */
export interface ShardPort {
  post(msg: ShardRequest, transfer: ArrayBuffer[]): void;
  onMessage(handler: (msg: ShardReply) => void): void;
  onError(handler: (e: Error) => void): void;
  terminate(): void;
}

/** Below this many cells a single thread wins: messaging costs more than it saves. */
export const MIN_CELLS_PER_THREAD = 20_000;

/**
 * The fused engine spread over `threads` workers, each holding a contiguous,
 * item-aligned share of the cells. Per evaluate the natural parameters go to
 * every shard (a copy: no SharedArrayBuffer, so no cross-origin isolation is
 * needed), and the partial cross-entropies and gradients are summed here in
 * float64. Same function as the fused engine, up to summation order. With
 * `kernel` 'wasm' each shard runs the WASM kernel on its cells (the engine is
 * then named 'wasm'), else the JS fused loop.
 */
export async function createParallelFusedEngine(
  problem: Problem,
  threads: number,
  spawn: () => ShardPort,
  kernel: ShardKernel = 'fused',
): Promise<Engine> {
  const ranges = shardRanges(problem.cells, Math.max(1, threads));
  const ports = ranges.map(() => spawn());
  let next = 1;
  const pending = new Map<
    number,
    { resolve: (r: { ce: number; grad: Float64Array | null }) => void; reject: (e: Error) => void }
  >();
  let failed: Error | null = null;
  const fail = (e: Error) => {
    failed = e;
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };
  // Whether every shard has a float32 path (each reports it when ready).
  let float32 = true;
  const ready = ports.map(
    (port, s) =>
      new Promise<void>((resolve, reject) => {
        port.onError((e) => {
          reject(e);
          fail(e);
        });
        port.onMessage((msg) => {
          if (msg.type === 'ready') {
            float32 &&= msg.float32 === true;
            return resolve();
          }
          const p = pending.get(msg.id);
          if (!p) return;
          pending.delete(msg.id);
          if (msg.type === 'error') p.reject(new Error(`shard ${s}: ${msg.message}`));
          else p.resolve({ ce: msg.ce, grad: msg.grad });
        });
        const sp = shardProblem(problem, ranges[s][0], ranges[s][1]);
        const c = sp.cells;
        port.post({ type: 'init', problem: sp, kernel }, [
          c.cellJ.buffer as ArrayBuffer,
          c.cellI.buffer as ArrayBuffer,
          c.target.buffer as ArrayBuffer,
          c.correct.buffer as ArrayBuffer,
        ]);
      }),
  );
  await Promise.all(ready);
  const ask = (port: ShardPort, nat: Float64Array, wantGrad: boolean, coarse: boolean) =>
    new Promise<{ ce: number; grad: Float64Array | null }>((resolve, reject) => {
      if (failed) return reject(failed);
      const id = next++;
      pending.set(id, { resolve, reject });
      // A copy transferred, not cloned: cloning a large typed array measured about
      // 16 ms per shard at 635,240 parameters (Node), a copy and a transfer about 1.
      const own = nat.slice();
      port.post({ type: 'evaluate', id, nat: own, wantGrad, coarse }, [own.buffer]);
    });
  return {
    name: kernel,
    detail: `spread over ${ports.length} shard workers`,
    float32,
    async evaluate(nat, grad, coarse = false) {
      const parts = await Promise.all(ports.map((p) => ask(p, nat, grad !== null, coarse)));
      let ce = 0;
      if (grad) grad.fill(0);
      for (const r of parts) {
        ce += r.ce;
        if (grad && r.grad) for (let q = 0; q < grad.length; q++) grad[q] += r.grad[q];
      }
      return ce;
    },
    dispose() {
      for (const p of ports) p.terminate();
      fail(new Error('engine disposed'));
    },
  };
}
