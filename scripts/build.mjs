#!/usr/bin/env node
// `npm run build`: a clean dist/ compiled by tsc from src/ and machines/ (tsconfig.build.json),
// then bundled by esbuild into dist/bnity.cjs, which bin/bnity.js runs (ADR 006: one file
// loads in a third of the time the module graph takes) with its code cache (ADR 033), and the
// web UI bundled by esbuild from src/ui/ into dist/ui/ (ADR 011).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
rmSync(join(root, 'dist'), { recursive: true, force: true });
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });

// The service: one CommonJS file, dist/bnity.cjs, that bin/bnity.js runs as a `vm.Script` with
// the bytecode a training run recorded for it (ADR 033; Node 20 caches no compiled ES module).
// A module loaded with import() is in the same file, wrapped so that it runs when first needed.
const shared = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  // A package's ES module build where it has one: UMD builds require() their own files at
  // run time, which a bundle cannot follow (jsonc-parser).
  mainFields: ['module', 'main'],
  target: 'node20',
  // Less source to read and, without a cache, to compile (ADR 015 §6). Names are kept (errors
  // and profiles stay readable); the map has the rest.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
};
// `import()` of a built-in or a package left outside becomes a `require()` when first run: a
// script given V8's code cache loses the options a real `import()` needs (it would throw "A
// dynamic import callback was not specified"), and Node's loader for `vm` scripts is still
// experimental on Node 20.
// The PostgreSQL driver and drizzle's PostgreSQL dialect are left outside too (ADR 036): they
// are required from node_modules only when a postgres:// URL is given, so the SQLite default's
// bundle and code cache stay as they were (drizzle's `is()` checks go by entity kind, not by
// class, so the tables of the bundled copy work with the dialect of the required one).
const LEFT_OUTSIDE = [
  'libsql',
  'pino-pretty',
  'postgres',
  'drizzle-orm/postgres-js',
  'drizzle-orm/postgres-js/migrator',
];
const importAsRequire = {
  name: 'import-as-require',
  setup(esbuild) {
    esbuild.onResolve({ filter: /.*/ }, (args) =>
      args.kind === 'dynamic-import' && (isBuiltin(args.path) || LEFT_OUTSIDE.includes(args.path))
        ? { path: args.path, namespace: 'import-as-require' }
        : undefined,
    );
    esbuild.onLoad({ filter: /.*/, namespace: 'import-as-require' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};
const server = await build({
  ...shared,
  plugins: [importAsRequire],
  metafile: true,
  entryPoints: { bnity: 'dist/src/cli/main.js' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  // libsql loads a native addon by a computed name; pino-pretty is for a terminal only. pino
  // is in: its code is in the code cache (its transports, which start workers from its
  // files, are not used: src/log/create-logger.ts).
  external: LEFT_OUTSIDE,
  // Our modules find the package's folder from their own URL: in the bundle, the bundle's.
  define: { 'import.meta.url': '__bnity_import_meta_url' },
  banner: { js: "var __bnity_import_meta_url = require('node:url').pathToFileURL(__filename).href;" },
});
const realImports = Object.values(server.metafile.outputs).flatMap((output) =>
  output.imports.filter((i) => i.kind === 'dynamic-import' && i.external).map((i) => i.path),
);
if (realImports.length > 0) throw new Error(`dist/bnity.cjs would import() ${realImports.join(', ')} at run time`);
// What bin/bnity.js runs before the bundle: the old generation's growth limited, the
// pre-spawn (ADR 032) and the loader, small ES modules of node built-ins only.
await build({
  ...shared,
  entryPoints: {
    'limit-heap-growth': 'dist/src/runtime/limit-heap-growth.js',
    prespawn: 'dist/src/start/prespawn.js',
    'load-bundle': 'dist/src/start/load-bundle.js',
  },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  format: 'esm',
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

// The bytecode of start-up and a first call, recorded by serving one (ADR 033).
execFileSync(process.execPath, [join(root, 'scripts', 'train-code-cache.mjs')], { cwd: root, stdio: 'inherit' });
