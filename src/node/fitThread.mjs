// Worker-thread entry for the CLI's pool of fits (fitPool.ts): register tsx so
// the TypeScript fit can be imported, as bin/llm-nrm.js does.
import { register } from 'tsx/esm/api';

register();
await import('./fitThread.ts');
