import { evaluateFused } from '../fused';
import type { Problem } from '../types';
import type { ShardReply, ShardRequest } from './shard';

/**
 * The shard side: holds one shard's problem and answers evaluate requests with
 * its partial cross-entropy and gradient. `post` sends a reply, transferring
 * the gradient buffer. Runtime-neutral: a Web Worker and a Node worker thread
 * both wrap it.
 */
export function createShardServer(post: (msg: ShardReply, transfer: ArrayBuffer[]) => void) {
  let problem: Problem | null = null;
  return (msg: ShardRequest) => {
    if (msg.type === 'init') {
      problem = msg.problem;
      post({ type: 'ready' }, []);
      return;
    }
    try {
      if (!problem) throw new Error('shard not initialised');
      const grad = msg.wantGrad ? new Float64Array(msg.nat.length) : null;
      const ce = evaluateFused(problem, msg.nat, grad);
      post({ type: 'result', id: msg.id, ce, grad }, grad ? [grad.buffer as ArrayBuffer] : []);
    } catch (e) {
      post({ type: 'error', id: msg.id, message: (e as Error).message }, []);
    }
  };
}
