// A stand-in for src/node/fitThread.mjs in fitPool.test.ts: a job whose
// settings name the model 'crash' ends the thread (exit code 3), the first
// with 'throw' throws an uncaught error; any other job is answered at once
// with a small fit.json naming the thread's own start order.
import process from 'node:process';
import { parentPort, threadId } from 'node:worker_threads';

parentPort.on('message', (m) => {
  if (m.type !== 'fit') return;
  if (m.settings.model === 'crash') process.exit(3);
  if (m.settings.model === 'throw') throw new Error('thread blew up');
  parentPort.postMessage({ id: m.id, type: 'done', json: { model: m.settings.model, threadId } });
});
