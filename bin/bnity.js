#!/usr/bin/env node
// The `bnity` command. boternity runs its TypeScript sources through tsx's loader
// (docs/adr/002-run-typescript-with-tsx.md), so there is no build step to forget.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
