#!/usr/bin/env node
// The CLI runs the same TypeScript core as the browser worker, through tsx.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
