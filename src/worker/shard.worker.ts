/// <reference lib="webworker" />
// A shard of the parallel fused engine: one item-aligned share of the cells.
import { createShardServer } from '../core/engines/parallel/serve';
import type { ShardRequest } from '../core/engines/parallel/shard';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const handle = createShardServer((msg, transfer) => scope.postMessage(msg, transfer));
scope.onmessage = (e: MessageEvent<ShardRequest>) => handle(e.data);
