#!/usr/bin/env node
// `npm run build`: a clean dist/ compiled by tsc from src/ and machines/ (tsconfig.build.json),
// then bundled by esbuild into dist/bnity.mjs, which bin/bnity.js runs (ADR 006: one file
// loads in a third of the time the module graph takes), and the web UI bundled by esbuild
// from src/ui/ into dist/ui/ (ADR 011).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
rmSync(join(root, 'dist'), { recursive: true, force: true });
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });

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
  // Less source to scan at start (ADR 015 §6): 5.1 → 3.7 MB, about 10% of the CPU before the
  // first spawn. Names are kept (errors and profiles stay readable); the map has the rest.
  minifyWhitespace: true,
  minifySyntax: true,
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

// The UI: one script and one style sheet, minified, for the browsers of the last few years.
// Only `import type` reaches the server's code, so no server module ends up in the bundle.
// Their names carry a hash of their content (`app.3KX7Q2ZD.js`), and index.html is written
// with those names: the service can then let a browser keep them for a year without asking
// (`ui-routes.ts`), and a new build is new names, so a reload fetches only the page.
const ui = join(root, 'src', 'ui');
const out = join(root, 'dist', 'ui');
mkdirSync(out, { recursive: true });
const { metafile } = await build({
  entryPoints: { app: join(ui, 'main.tsx'), style: join(ui, 'app.css') },
  outdir: out,
  entryNames: '[name].[hash]',
  chunkNames: '[name].[hash]',
  metafile: true,
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
let html = readFileSync(join(ui, 'index.html'), 'utf8');
for (const [path, output] of Object.entries(metafile.outputs)) {
  if (!output.entryPoint) continue;
  const hashed = basename(path);
  // `app.3KX7Q2ZD.js` is referenced in the source page as `/ui/assets/app.js`.
  const plain = `/ui/assets/${hashed.replace(/\.[^.]+(\.[^.]+)$/, '$1')}`;
  if (!html.includes(`"${plain}"`)) throw new Error(`src/ui/index.html does not reference ${plain}`);
  html = html.replaceAll(`"${plain}"`, `"/ui/assets/${hashed}"`);
}
writeFileSync(join(out, 'index.html'), html);
