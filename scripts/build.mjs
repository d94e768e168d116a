#!/usr/bin/env node
// `npm run build`: a clean dist/ compiled by tsc from src/ and machines/ (tsconfig.build.json),
// then bundled by esbuild into dist/bnity.mjs, which bin/bnity.js runs (ADR 006: one file
// loads in a third of the time the module graph takes).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
rmSync(join(root, 'dist'), { recursive: true, force: true });
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });

const { build } = await import('esbuild');
await build({
  absWorkingDir: root,
  entryPoints: { bnity: 'dist/src/cli/main.js' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  // A module loaded with import() stays out of the main file, loaded when first needed.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  platform: 'node',
  // A package's ES module build where it has one: UMD builds require() their own files at
  // run time, which a bundle cannot follow (jsonc-parser).
  mainFields: ['module', 'main'],
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
  // libsql loads a native addon by a computed name; pino starts its transports from files.
  external: ['libsql', 'pino', 'pino-pretty'],
  // CommonJS dependencies call require(): give the ES module one.
  banner: {
    js: "import { createRequire as __bnityCreateRequire } from 'node:module'; const require = __bnityCreateRequire(import.meta.url);",
  },
});
