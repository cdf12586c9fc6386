import { evaluateFused } from '../fused';
import { createWasmEvaluate, type Evaluate } from '../wasm/engine';
import type { ShardReply, ShardRequest } from './shard';

/**
 * The shard side: holds one shard's problem and answers evaluate requests with
 * its partial cross-entropy and gradient. `post` sends a reply, transferring
 * the gradient buffer. Runtime-neutral: a Web Worker and a Node worker thread
 * both wrap it.
 */
export function createShardServer(post: (msg: ShardReply, transfer: ArrayBuffer[]) => void) {
  let evaluate: Evaluate | null = null;
  return (msg: ShardRequest) => {
    if (msg.type === 'init') {
      const problem = msg.problem;
      if (msg.kernel === 'wasm') {
        // Falls back to the JS loop itself where the kernel does not apply or load.
        void createWasmEvaluate(problem).then((w) => {
          evaluate = w.evaluate;
          post({ type: 'ready', float32: w.float32 === true }, []);
        });
      } else {
        evaluate = (nat, grad) => evaluateFused(problem, nat, grad);
        post({ type: 'ready' }, []);
      }
      return;
    }
    try {
      if (!evaluate) throw new Error('shard not initialised');
      const grad = msg.wantGrad ? new Float64Array(msg.nat.length) : null;
      const ce = evaluate(msg.nat, grad, msg.coarse);
      post({ type: 'result', id: msg.id, ce, grad }, grad ? [grad.buffer as ArrayBuffer] : []);
    } catch (e) {
      post({ type: 'error', id: msg.id, message: (e as Error).message }, []);
    }
  };
}
