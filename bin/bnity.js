#!/usr/bin/env node
// The `bnity` command: runs the bundle of the compiled JavaScript in dist/
// (docs/adr/004-compiled-build.md, 006). `npm install` builds it (the `prepare` script);
// `npm run build` rebuilds it.
let main;
try {
  ({ main } = await import('../dist/bnity.mjs'));
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist')) throw error;
  process.stderr.write("bnity: boternity is not built: run 'npm run build' (or 'npm install') in its folder\n");
  process.exit(1);
}
const code = await main(process.argv.slice(2));
// Everything was awaited and closed by now; exiting also ends timers left by libraries.
process.exit(code);
