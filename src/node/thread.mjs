// Worker-thread entry for the parallel fused engine under Node: register tsx so
// the TypeScript shard server can be imported, as bin/llm-nrm.js does.
import { register } from 'tsx/esm/api';

register();
await import('./thread.ts');
