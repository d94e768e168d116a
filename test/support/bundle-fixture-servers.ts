/**
 * vitest global setup: the fixture MCP servers of test/support that load the SDK are bundled
 * by esbuild, each into one file in a temporary directory, which the tests spawn instead
 * (`fixtureServer()` in fixtures.ts). A server started from its module graph reads and compiles
 * the SDK's and zod's files one by one: about 0.35 s of CPU a start on the 2-vCPU machines,
 * 0.1 s bundled, over the suite's 250-odd starts. The code is the same; only how it loads differs.
 * So is server-everything (0.4 s, 0.2 s bundled), as `everything/bin/index.mjs` beside a copy of
 * the `docs/` it reads from `../docs` of its own file.
 * @module
 */
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The directory of the bundled fixture servers, each under its own file name. */
    fixtureServers: string;
  }
}

const support = fileURLToPath(new URL('.', import.meta.url));

/** The servers bundled: those that load the SDK and read no file beside themselves. */
async function bundledServers(): Promise<string[]> {
  const names = (await readdir(support)).filter((name) => name.endsWith('.mjs'));
  const sources = await Promise.all(names.map(async (name) => [name, await readFile(join(support, name), 'utf8')]));
  return sources
    .filter(([, text]) => text?.includes('@modelcontextprotocol/sdk') && !text.includes('import.meta'))
    .map(([name]) => name as string);
}

const options = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // A CommonJS dependency's require() of a built-in, inside an ES module bundle.
  banner: {
    js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
  },
  logLevel: 'warning',
} as const;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'bnity-fixture-servers-'));
  const names = await bundledServers();
  const everything = join(
    dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')),
    'dist',
  );
  await Promise.all([
    build({
      ...options,
      entryPoints: names.map((name) => join(support, name)),
      outdir: dir,
      outExtension: { '.js': '.mjs' },
    }),
    build({
      ...options,
      entryPoints: [join(everything, 'index.js')],
      outfile: join(dir, 'everything', 'bin', 'index.mjs'),
    }),
    cp(join(everything, 'docs'), join(dir, 'everything', 'docs'), { recursive: true }),
  ]);
  project.provide('fixtureServers', dir);
  return () => rm(dir, { recursive: true, force: true });
}
