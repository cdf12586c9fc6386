import type { Engine, Problem } from '../types';
import type { ItemPrecision } from '../curvature';
import { sweepable } from '../sweep';
import {
  cellsPart,
  shardHeader,
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

/** The most threads a CPU engine spreads over by default. */
export const MAX_THREADS = 8;

/**
 * Threads to spread a CPU engine (fused or wasm) over for `cells` cells: the
 * `requested` count, else the `cores` up to MAX_THREADS, and no more than give
 * each thread MIN_CELLS_PER_THREAD cells. 1 means run in one thread. The one
 * choice the worker (the browser's cores) and the CLI (Node's) both make.
 */
export function threadsFor(cells: number, cores: number, requested?: number): number {
  const want = requested ?? Math.min(MAX_THREADS, cores);
  return Math.max(1, Math.min(want, Math.floor(cells / MIN_CELLS_PER_THREAD)));
}

/**
 * Cells per set-up message. A shard's cells go in batches, each sent when the
 * shard has taken the last, so only a batch (about 6 MB at 10 options) is ever
 * held twice, not the shard's whole share.
 */
export const SHARD_BATCH = 1 << 17;

/**
 * The fused engine spread over `threads` workers, each holding a contiguous,
 * item-aligned share of the cells. Per evaluate the natural parameters go to
 * every shard (a copy: no SharedArrayBuffer, so no cross-origin isolation is
 * needed), and the partial cross-entropies and gradients are summed here in
 * float64. Same function as the fused engine, up to summation order. With
 * `kernel` 'wasm' each shard runs the WASM kernel on its cells (the engine is
 * then named 'wasm'), else the JS fused loop. `batch`: cells per set-up message.
 */
export async function createParallelFusedEngine(
  problem: Problem,
  threads: number,
  spawn: () => ShardPort,
  kernel: ShardKernel = 'fused',
  batch = SHARD_BATCH,
): Promise<Engine> {
  const ranges = shardRanges(problem.cells, Math.max(1, threads));
  const ports = ranges.map(() => spawn());
  let next = 1;
  const pending = new Map<
    number,
    { resolve: (r: ShardReply) => void; reject: (e: Error) => void }
  >();
  // Each shard's set-up replies, in the order they are awaited.
  const waiting = ports.map(
    () => [] as { resolve: (m: ShardReply) => void; reject: (e: Error) => void }[],
  );
  let failed: Error | null = null;
  const fail = (e: Error) => {
    failed = e;
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };
  ports.forEach((port, s) => {
    port.onError((e) => {
      for (const w of waiting[s].splice(0)) w.reject(e);
      fail(e);
    });
    port.onMessage((msg) => {
      if (msg.type === 'took' || msg.type === 'ready' || (msg.type === 'error' && msg.id === 0))
        return waiting[s].shift()?.resolve(msg);
      const p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      if (msg.type === 'error') p.reject(new Error(`shard ${s}: ${msg.message}`));
      else p.resolve(msg);
    });
  });
  const reply = (s: number, want: ShardReply['type']) =>
    new Promise<ShardReply>((resolve, reject) => waiting[s].push({ resolve, reject })).then((m) => {
      if (m.type === 'error') throw new Error(`shard ${s}: ${m.message}`);
      if (m.type !== want) throw new Error(`shard ${s}: '${m.type}', expected '${want}'`);
      return m;
    });
  // Whether every shard has a float32 path, and why any fell back to the JS loop
  // (each reports both when ready).
  let float32 = true;
  const fallbacks = new Set<string>();
  const load = async (s: number) => {
    const [from, to] = ranges[s];
    const port = ports[s];
    port.post({ type: 'init', problem: shardHeader(problem, to - from), kernel }, []);
    for (let at = from; at < to; at += batch) {
      const part = cellsPart(problem.cells, at, Math.min(to, at + batch));
      port.post({ type: 'cells', at: at - from, part }, [
        part.cellJ.buffer as ArrayBuffer,
        part.cellI.buffer as ArrayBuffer,
        part.target.buffer as ArrayBuffer,
        part.correct.buffer as ArrayBuffer,
      ]);
      await reply(s, 'took');
    }
    port.post({ type: 'finish' }, []);
    const ready = await reply(s, 'ready');
    float32 &&= ready.type === 'ready' && ready.float32 === true;
    if (ready.type === 'ready' && ready.fallback) fallbacks.add(ready.fallback);
  };
  try {
    await Promise.all(ranges.map((_, s) => load(s)));
  } catch (e) {
    for (const p of ports) p.terminate();
    throw e;
  }
  /** Sends `nat` (a copy) to a shard in the request `make` builds, and awaits the reply. */
  const ask = (
    port: ShardPort,
    nat: Float64Array,
    make: (id: number, own: Float64Array) => ShardRequest,
  ) =>
    new Promise<ShardReply>((resolve, reject) => {
      if (failed) return reject(failed);
      const id = next++;
      pending.set(id, { resolve, reject });
      // A copy transferred, not cloned: cloning a large typed array measured about
      // 16 ms per shard at 635,240 parameters (Node), a copy and a transfer about 1.
      const own = nat.slice();
      port.post(make(id, own), [own.buffer]);
    });
  return {
    name: kernel,
    detail: [`spread over ${ports.length} shard workers`, ...fallbacks].join('; '),
    float32,
    async evaluate(nat, grad, coarse = false) {
      const wantGrad = grad !== null;
      const parts = await Promise.all(
        ports.map((p) =>
          ask(p, nat, (id, own) => ({ type: 'evaluate', id, nat: own, wantGrad, coarse })),
        ),
      );
      let ce = 0;
      if (grad) grad.fill(0);
      for (const r of parts) {
        if (r.type !== 'result') throw new Error(`a shard answered '${r.type}' to evaluate`);
        ce += r.ce;
        if (grad && r.grad) for (let q = 0; q < grad.length; q++) grad[q] += r.grad[q];
      }
      return ce;
    },
    ...(problem.kind === 'nominal' && sweepable(problem.flags)
      ? {
          async curvature(nat: Float64Array, prec: ItemPrecision) {
            const parts = await Promise.all(
              ports.map((p) =>
                ask(p, nat, (id, own) => ({ type: 'curvature', id, nat: own, prec })),
              ),
            );
            return parts.map((r) => {
              if (r.type !== 'curvature')
                throw new Error(`a shard answered '${r.type}' to curvature`);
              return r.part;
            });
          },
        }
      : {}),
    dispose() {
      for (const p of ports) p.terminate();
      fail(new Error('engine disposed'));
    },
  };
}
