#!/usr/bin/env node
// The `bnity` command: runs the bundle of the compiled JavaScript in dist/
// (docs/adr/004-compiled-build.md, 006). `npm install` builds it (the `prepare` script);
// `npm run build` rebuilds it.
const argv = process.argv.slice(2);
// `bnity serve`: the certain stdio servers start now, before the bundle loads, and the
// service adopts them (docs/adr/032-pre-spawn.md; BOTERNITY_PRESPAWN=0 turns it off).
let prespawned = null;
if (argv[0] === 'serve' && process.env.BOTERNITY_PRESPAWN !== '0') {
  try {
    prespawned = (await import('../dist/prespawn.mjs')).prespawn({ argv, env: process.env });
  } catch {
    // Not built, or an older build: the service spawns them itself.
  }
}
let main;
try {
  ({ main } = await import('../dist/bnity.mjs'));
} catch (error) {
  await prespawned?.endRest();
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist')) throw error;
  process.stderr.write("bnity: boternity is not built: run 'npm run build' (or 'npm install') in its folder\n");
  process.exit(1);
}
const code = await main(argv, process.env, prespawned ? { prespawned } : {});
// A child started early and never adopted (a usage error, a failed start) does not outlive us.
await prespawned?.endRest();
// Everything was awaited and closed by now; exiting also ends timers left by libraries.
process.exit(code);
