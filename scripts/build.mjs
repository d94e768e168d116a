#!/usr/bin/env node
// `npm run build`: a clean dist/ compiled by tsc from src/ and machines/ (tsconfig.build.json),
// then the web UI bundled by esbuild from src/ui/ into dist/ui/ (ADR 011).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
rmSync(join(root, 'dist'), { recursive: true, force: true });
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });

// The UI: one script and one style sheet, minified, for the browsers of the last few years.
// Only `import type` reaches the server's code, so no server module ends up in the bundle.
const ui = join(root, 'src', 'ui');
const out = join(root, 'dist', 'ui');
mkdirSync(out, { recursive: true });
await build({
  entryPoints: { app: join(ui, 'main.tsx'), style: join(ui, 'app.css') },
  outdir: out,
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome111', 'firefox115', 'safari16.4'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  tsconfig: join(ui, 'tsconfig.json'),
  logLevel: 'warning',
});
copyFileSync(join(ui, 'index.html'), join(out, 'index.html'));
