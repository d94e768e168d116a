/**
 * Load the service's bundle with V8's code cache (ADR 033). Node 20 has no compile cache for
 * ES modules (`module.enableCompileCache` came in Node 22), and compiling the bundle was the
 * largest item of the CPU before `/mcp` answers (about 115 ms of 650). The bundle is one
 * CommonJS file run as a `vm.Script`, given the bytecode the build recorded while a training
 * run served one call (`scripts/train-code-cache.mjs`): V8 then skips parsing and compiling
 * what start-up and the first call run. The cache is used only when it was made from this
 * very file (its size and modification time, kept beside it) and V8 accepts it (same V8, same
 * flags); otherwise the bundle compiles as before, a little slower and just as correct.
 * @module
 */
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

/** What became of the code cache: used; refused by V8 (another Node, other V8 flags); made for another build; not there. */
export type CodeCacheState = 'used' | 'rejected' | 'stale' | 'absent';

/** A bundle loaded and run. */
export type LoadedBundle = {
  /** What the bundle's `module.exports` holds. */
  readonly exports: Record<string, unknown>;
  readonly codeCache: CodeCacheState;
  /** Record the bytecode of everything compiled so far as the bundle's cache (the training run does, at its end). */
  writeCodeCache(): void;
};

/** The file that says which build a cache was made from. */
type CacheStamp = { size: number; mtimeMs: number };

const stampOf = (file: string): CacheStamp => {
  const { size, mtimeMs } = statSync(file);
  return { size, mtimeMs };
};

/** The cache of `file` when it was made from this build of it, or why not. */
function readCache(file: string): { data?: Buffer; state: CodeCacheState } {
  let stamp: CacheStamp;
  let data: Buffer;
  try {
    stamp = JSON.parse(readFileSync(`${file}.cache.json`, 'utf8')) as CacheStamp;
    data = readFileSync(`${file}.cache`);
  } catch {
    return { state: 'absent' };
  }
  const now = stampOf(file);
  // V8 itself checks only the source's length: a rebuilt bundle of the same length must not get old bytecode.
  return now.size === stamp.size && now.mtimeMs === stamp.mtimeMs ? { data, state: 'used' } : { state: 'stale' };
}

/**
 * Run the CommonJS bundle `file` (an absolute path) with its code cache when there is a good
 * one. The bundle must not `import()` (a function from the cache cannot): the build turns each
 * `import()` of what it leaves outside into a `require()`, and fails if one is left.
 */
export function loadBundle(file: string): LoadedBundle {
  const source = readFileSync(file, 'utf8');
  const cache = readCache(file);
  const script = new Script(Module.wrap(source), {
    filename: file,
    ...(cache.data ? { cachedData: cache.data } : {}),
  });
  const codeCache: CodeCacheState = cache.data && script.cachedDataRejected ? 'rejected' : cache.state;
  const module = { exports: {} as Record<string, unknown> };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return {
    exports: module.exports,
    codeCache,
    writeCodeCache() {
      // Written aside and renamed: a process starting meanwhile reads the old cache or the new one, never half.
      writeFileSync(`${file}.cache.tmp`, script.createCachedData());
      renameSync(`${file}.cache.tmp`, `${file}.cache`);
      writeFileSync(`${file}.cache.json`, JSON.stringify(stampOf(file)));
    },
  };
}
