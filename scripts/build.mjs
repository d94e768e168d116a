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
  // The pre-spawn (ADR 032) is its own small entry, node built-ins only: bin/bnity.js runs it
  // before the bundle loads. What it shares with the bundle (the spawn) is one chunk for both.
  entryPoints: { bnity: 'dist/src/cli/main.js', prespawn: 'dist/src/start/prespawn.js' },
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

// The UI: a script and a style sheet, minified, for the browsers of the last few years.
// Only `import type` reaches the server's code, so no server module ends up in the bundle.
// Their names carry a hash of their content (`app.3KX7Q2ZD.js`), and index.html is written
// with those names: the service can then let a browser keep them for a year without asking
// (`ui-routes.ts`), and a new build is new names, so a reload fetches only the page.
// Split (ADR 027): each page the app loads with import() is its own file
// (`bot-page.5JQ2M7XA.js`), and code shared by several is in `chunk.<hash>.js` files, all in
// the same folder and named by their hash; the page preloads the chunks the script imports.
const ui = join(root, 'src', 'ui');
const out = join(root, 'dist', 'ui');
mkdirSync(out, { recursive: true });
const { metafile } = await build({
  absWorkingDir: root,
  entryPoints: { app: join(ui, 'main.tsx'), style: join(ui, 'app.css') },
  outdir: out,
  entryNames: '[name].[hash]',
  chunkNames: '[name].[hash]',
  metafile: true,
  bundle: true,
  splitting: true,
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
const named = new Set([join(ui, 'main.tsx'), join(ui, 'app.css')].map((file) => file.slice(root.length + 1)));
for (const [path, output] of Object.entries(metafile.outputs)) {
  // The two files the page names (a page loaded with import() is an entry point too, named by the script).
  if (!output.entryPoint || !named.has(output.entryPoint)) continue;
  const hashed = basename(path);
  // `app.3KX7Q2ZD.js` is referenced in the source page as `/ui/assets/app.js`.
  const plain = `/ui/assets/${hashed.replace(/\.[^.]+(\.[^.]+)$/, '$1')}`;
  if (!html.includes(`"${plain}"`)) throw new Error(`src/ui/index.html does not reference ${plain}`);
  html = html.replaceAll(`"${plain}"`, `"/ui/assets/${hashed}"`);
  // The chunks the script imports at once, asked for with it rather than after it has arrived.
  const preload = output.imports
    .filter((i) => i.kind === 'import-statement')
    .map((i) => `<link rel="modulepreload" href="/ui/assets/${basename(i.path)}">\n`)
    .join('');
  html = html.replace(`<script type="module" src="/ui/assets/${hashed}">`, `${preload}$&`);
}
writeFileSync(join(out, 'index.html'), html);
