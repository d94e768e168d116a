#!/usr/bin/env node
// The `bnity` command: runs the bundle of the compiled JavaScript in dist/
// (docs/adr/004-compiled-build.md, 006), with the bytecode the build recorded for it
// (033). `npm install` builds it (the `prepare` script); `npm run build` rebuilds it.
import { fileURLToPath } from 'node:url';

const argv = process.argv.slice(2);
// `bnity serve`: the certain stdio servers start now, first of all (their own start is most
// of the time to a first call), and the service adopts them (docs/adr/032-pre-spawn.md;
// BOTERNITY_PRESPAWN=0 turns it off).
let prespawned = null;
if (argv[0] === 'serve' && process.env.BOTERNITY_PRESPAWN !== '0') {
  try {
    prespawned = await (await import('../dist/prespawn.mjs')).prespawn({ argv, env: process.env });
  } catch {
    // Not built, or an older build: the service spawns them itself.
  }
}
// `bnity serve`: the old generation's growth is limited before the bundle loads, so that a
// full collection V8 makes while it loads sets the next one's threshold with it
// (src/runtime/limit-heap-growth.ts; `runtime.tuneProcess: false` gives V8 its own back).
// Every other command loads the bundle under that flag too, and gives V8 its own growth back
// once it is loaded: V8 takes the code cache only under the flags it was recorded with (a
// serve's), and without it each command compiled the whole bundle (ADR 033, second amendment).
let limitHeapGrowth = null;
let restoreHeapGrowth = null;
try {
  ({ limitHeapGrowth, restoreHeapGrowth } = await import('../dist/limit-heap-growth.mjs'));
  limitHeapGrowth();
} catch {
  // Not built, or an older build: the bundle's tuning sets it.
}
let bundle;
try {
  const { loadBundle } = await import('../dist/load-bundle.mjs');
  bundle = loadBundle(fileURLToPath(new URL('../dist/bnity.cjs', import.meta.url)));
  if (argv[0] !== 'serve') restoreHeapGrowth?.();
} catch (error) {
  await prespawned?.endRest();
  const missing = error?.code === 'ERR_MODULE_NOT_FOUND' || error?.code === 'ENOENT';
  if (!missing || !String(error.message).includes('dist')) throw error;
  process.stderr.write("bnity: boternity is not built: run 'npm run build' (or 'npm install') in its folder\n");
  process.exit(1);
}
const code = await bundle.exports.main(argv, process.env, {
  ...(prespawned ? { prespawned } : {}),
  codeCache: bundle.codeCache,
});
// A child started early and never adopted (a usage error, a failed start) does not outlive us.
await prespawned?.endRest();
// The build's training run (scripts/train-code-cache.mjs) records what it compiled, under the
// V8 flags a `bnity serve` loads its bundle with (V8 refuses a cache made under others; the
// training's config turned the tuning off, which gave V8 its own heap growth back).
if (process.env.BOTERNITY_TRAIN_CODE_CACHE === '1') {
  limitHeapGrowth?.();
  bundle.writeCodeCache();
}
// Everything was awaited and closed by now; exiting also ends timers left by libraries.
process.exit(code);
