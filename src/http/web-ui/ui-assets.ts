/**
 * The web UI's built files (`dist/ui/`, written by `scripts/build.mjs`), read from the package
 * on first use and kept in memory with their gzip form and an ETag: a handful of small files,
 * served without touching the disk again, never from a CDN. The script and the style sheet
 * carry a hash of their content in their names (`app.3KX7Q2ZD.js`), so they can be cached
 * for good; the page that names them cannot.
 * @module
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** One file as served. */
export type UiAsset = {
  readonly body: Uint8Array<ArrayBuffer>;
  readonly gzip: Uint8Array<ArrayBuffer>;
  readonly type: string;
  /** A weak ETag (`W/"…"`) from the content: the same for the plain and the gzip form. */
  readonly etag: string;
  /** The name carries its content's hash: a name always means the same bytes. */
  readonly immutable: boolean;
};

/** The files by name (`index.html`, `app.<hash>.js`, `style.<hash>.css`); null when the UI was not built. */
export type UiAssets = { get(name: string): UiAsset | null; built(): boolean };

const TYPES: Readonly<Record<string, string>> = Object.freeze({
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
});

// esbuild's `[hash]`: eight characters of base32 before the extension.
const HASHED = /\.[A-Z2-7]{8}\.[a-z]+$/;

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
      const etag = `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
      const gzip = new Uint8Array(gzipSync(body, { level: 9 }));
      found.set(name, { body, gzip, type, etag, immutable: HASHED.test(name) });
    }
    files = found;
    return found;
  };
  return {
    get: (name) => load().get(name) ?? null,
    built: () => load().has('index.html'),
  };
}
