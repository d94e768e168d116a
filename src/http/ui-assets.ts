/**
 * The web UI's built files (`dist/ui/`, written by `scripts/build.mjs`), read from the package
 * on first use and kept in memory with their gzip form: a handful of small files, served
 * without touching the disk again, never from a CDN.
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** One file as served. */
export type UiAsset = {
  readonly body: Uint8Array<ArrayBuffer>;
  readonly gzip: Uint8Array<ArrayBuffer>;
  readonly type: string;
};

/** The files by name (`index.html`, `app.js`, `app.css`); null when the UI was not built. */
export type UiAssets = { get(name: string): UiAsset | null; built(): boolean };

const TYPES: Readonly<Record<string, string>> = Object.freeze({
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
});

/** Serve the files of `dir` (only those with a known type; nothing below it). */
export function loadUiAssets(dir: string): UiAssets {
  let files: Map<string, UiAsset> | null = null;
  const load = (): Map<string, UiAsset> => {
    if (files) return files;
    const found = new Map<string, UiAsset>();
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      // Not built (a source checkout before `npm run build`): every lookup misses.
    }
    for (const name of names) {
      const type = TYPES[extname(name)];
      if (!type) continue;
      const body = new Uint8Array(readFileSync(join(dir, name)));
      found.set(name, { body, gzip: new Uint8Array(gzipSync(body, { level: 9 })), type });
    }
    files = found;
    return found;
  };
  return {
    get: (name) => load().get(name) ?? null,
    built: () => load().has('index.html'),
  };
}
