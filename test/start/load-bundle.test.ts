/**
 * The bundle loaded with its code cache (ADR 033): a CommonJS file run as a `vm.Script` with
 * its module variables and `require` working (also from a function run later); the cache recorded after a run and
 * used by the next load; a cache made for another build of the file (same length: V8 would
 * take it) or refused by V8 (bytes it cannot read) not used, and the file's own code run. And
 * the real build: `bnity serve` says it started with the cache the build recorded, and so does
 * a command other than serve (`bnity mcp serve --stdio` standalone), which loads the bundle
 * under a serve's V8 flags to be given it.
 */
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBundle } from '../../src/start/load-bundle.js';
import { spawnServe, startAndStopStdioBridge } from '../support/serve-process.js';
import { useTempDirs } from '../support/temp-dir.js';
import { waitFor } from '../support/wait-for.js';

const tempDir = useTempDirs('bnity-load-bundle-');

/** A bundle that says who it is: `word` in its exports, its own path, a built-in by `require` now and another later. */
const bundleSource = (word: string) => `
  const { sep } = require('node:path');
  exports.word = ${JSON.stringify(word)};
  exports.file = __filename;
  exports.sep = sep;
  exports.cpus = () => require('node:os').cpus().length;
`;

const write = (file: string, word: string) => {
  writeFileSync(file, bundleSource(word));
  return file;
};

describe('loadBundle', () => {
  it('runs the file as a CommonJS module, records its cache and uses it at the next load', async () => {
    const file = write(join(await tempDir(), 'b.cjs'), 'one');
    const first = loadBundle(file);
    expect(first.codeCache).toBe('absent');
    expect(first.exports).toMatchObject({ word: 'one', file, sep: '/' });
    expect((first.exports.cpus as () => number)()).toBeGreaterThan(0);
    first.writeCodeCache();
    expect(statSync(`${file}.cache`).size).toBeGreaterThan(0);
    const second = loadBundle(file);
    expect(second.codeCache).toBe('used');
    expect(second.exports.word).toBe('one');
  });

  it('does not use a cache made for another build of the file, even of the same length', async () => {
    const file = write(join(await tempDir(), 'b.cjs'), 'one');
    loadBundle(file).writeCodeCache();
    write(file, 'two');
    // Another build, another modification time (set apart in case both writes fell in one tick).
    const { mtime } = statSync(file);
    utimesSync(file, mtime, new Date(mtime.getTime() + 5_000));
    const loaded = loadBundle(file);
    expect(loaded.codeCache).toBe('stale');
    expect(loaded.exports.word).toBe('two');
  });

  it('runs the file when V8 refuses the cache', async () => {
    // A source this process has not compiled yet: V8 would otherwise take it from its own memory.
    const file = write(join(await tempDir(), 'b.cjs'), 'refused');
    writeFileSync(`${file}.cache`, Buffer.alloc(4096, 7));
    const { size, mtimeMs } = statSync(file);
    writeFileSync(`${file}.cache.json`, JSON.stringify({ size, mtimeMs }));
    const loaded = loadBundle(file);
    expect(loaded.codeCache).toBe('rejected');
    expect(loaded.exports.word).toBe('refused');
  });

  it('says a missing bundle in the error (bin/bnity.js turns it into "not built")', async () => {
    const missing = join(await tempDir(), 'dist', 'bnity.cjs');
    expect(() => loadBundle(missing)).toThrow(/ENOENT.*dist/);
  });
});

describe('the build', () => {
  it('records a cache that `bnity serve` starts with', async () => {
    const home = await tempDir();
    const config = join(home, 'config.json');
    writeFileSync(config, JSON.stringify({ mcpServers: {} }));
    const stamp = JSON.parse(readFileSync(new URL('../../dist/bnity.cjs.cache.json', import.meta.url), 'utf8'));
    expect(stamp.size).toBe(statSync(new URL('../../dist/bnity.cjs', import.meta.url)).size);
    const serve = await spawnServe(['--config', config, '--home', home, '--port', '0'], {
      BOTERNITY_ADMIN_TOKEN: 'cache-token',
      BOTERNITY_LOG_LEVEL: 'info',
    });
    try {
      const started = await waitFor(() => serve.stdout().match(/\{[^\n]*"boternity started"[^\n]*\}/)?.[0], {
        what: 'the start line',
      });
      expect(JSON.parse(started).codeCache).toBe('used');
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  });

  it('is used by a command other than serve too: a standalone `bnity mcp serve --stdio`', async () => {
    const home = await tempDir();
    const config = join(home, 'config.json');
    writeFileSync(config, JSON.stringify({ mcpServers: {} }));
    const { code, stderr } = await startAndStopStdioBridge(config, home);
    expect(code).toBe(0);
    const started = stderr.match(/\{[^\n]*"boternity started"[^\n]*\}/)?.[0];
    expect(JSON.parse(started ?? '{}').codeCache).toBe('used');
  });
});
