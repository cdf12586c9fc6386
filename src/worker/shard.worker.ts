/// <reference lib="webworker" />
// A shard of the parallel fused engine: one item-aligned share of the cells.
import { createShardServer } from '../core/engines/parallel/serve';
import type { ShardReply, ShardRequest } from '../core/engines/parallel/shard';

/**
 * What a shard uses of its worker scope. Typed by use, not as
 * `DedicatedWorkerGlobalScope`: the root tsconfig reads `self` as a window, and
 * both a window and a worker scope have these two members.
 */
interface ShardScope {
  postMessage(msg: ShardReply, options: { transfer: ArrayBuffer[] }): void;
  onmessage: ((e: MessageEvent<ShardRequest>) => void) | null;
}

const scope: ShardScope = self;
const handle = createShardServer((msg, transfer) => scope.postMessage(msg, { transfer }));
scope.onmessage = (e) => handle(e.data);
