#!/usr/bin/env node
// The `bnity` command. boternity runs its TypeScript sources through tsx's loader
// (docs/adr/002-run-typescript-with-tsx.md), so there is no build step to forget.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
const code = await main(process.argv.slice(2));
// Everything was awaited and closed by now; exiting also ends timers left by libraries.
process.exit(code);
