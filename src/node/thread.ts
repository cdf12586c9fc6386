import { parentPort } from 'node:worker_threads';
import { createShardServer } from '../core/engines/parallel/serve';

const port = parentPort!;
const handle = createShardServer((msg, transfer) => port.postMessage(msg, transfer));
port.on('message', handle);
