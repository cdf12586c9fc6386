import { Worker } from 'node:worker_threads';
import type { Engine, Problem } from '../core/engines/types';
import { createParallelFusedEngine, type ShardPort } from '../core/engines/parallel/engine';
import type { ShardKernel } from '../core/engines/parallel/shard';

/**
 * Node worker threads for the parallel fused engine. The thread runs the
 * TypeScript shard server through tsx's loader, as the CLI itself does.
 */
function spawnThread(): ShardPort {
  const w = new Worker(new URL('./thread.mjs', import.meta.url));
  return {
    post: (msg, transfer) => w.postMessage(msg, transfer),
    onMessage: (h) => w.on('message', h),
    onError: (h) => w.on('error', h),
    terminate: () => void w.terminate(),
  };
}

export function createNodeParallelEngine(
  problem: Problem,
  threads: number,
  kernel: ShardKernel = 'fused',
  batch?: number,
): Promise<Engine> {
  return createParallelFusedEngine(problem, threads, spawnThread, kernel, batch);
}
