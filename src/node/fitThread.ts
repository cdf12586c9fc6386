/**
 * A worker thread of the CLI's fit pool (fitPool.ts): runs fitDataset on the
 * data set it is sent, on a single-threaded engine of the name it is sent, and
 * posts back progress (at most every 200 ms), the fit, or the error.
 */
import { parentPort } from 'node:worker_threads';
import { createEngine } from '../core/engines/select';
import { fitDataset } from '../core/fit/fit';
import type { FitJob, FitReply } from './fitPool';

const port = parentPort!;
const running = new Map<number, AbortController>();
const post = (m: FitReply) => port.postMessage(m);

async function run(job: FitJob): Promise<void> {
  const ac = new AbortController();
  running.set(job.id, ac);
  let last = 0;
  try {
    const json = await fitDataset(job.ds, job.settings, {
      signal: ac.signal,
      engine: { ...job.engine, create: (p) => createEngine(p, job.engine.name) },
      onProgress: (p) => {
        const now = Date.now();
        if (now - last < 200) return;
        last = now;
        post({ id: job.id, type: 'progress', progress: p });
      },
    });
    post({ id: job.id, type: 'done', json });
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    post({ id: job.id, type: 'error', name: err.name, message: err.message });
  } finally {
    running.delete(job.id);
  }
}

port.on('message', (m: FitJob | { type: 'cancel'; id: number }) => {
  if (m.type === 'cancel') running.get(m.id)?.abort();
  else void run(m);
});
