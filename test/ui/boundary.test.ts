/**
 * The UI bundle's boundary (ADR 011): src/ui/ reaches the server's code only through
 * `import type` (typed against the API's schemas, nothing of the server bundled), and its
 * only runtime dependency is Preact. One exception, on purpose: the tool search index
 * (`src/gateway/search/`, pure functions over tool lists), which the tool filter runs in the
 * page so that it ranks as `search_tools` does (issue 24, ADR 038).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const ui = join(root, 'src', 'ui');
/** The server modules the UI may bundle: the search index's entry. */
const SHARED = [join(root, 'src', 'gateway', 'search', 'index.js')];
const files = readdirSync(ui, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && /\.tsx?$/.test(e.name))
  .map((e) => join(e.parentPath, e.name));

describe('the UI boundary', () => {
  it('imports values only from preact and its own files; the API only as types', () => {
    const offenders = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/^import\s+(type\s+)?[^;]*?from\s+'([^']+)'/gm)]
        .filter(
          ([, isType, from = '']) =>
            !isType && !from.startsWith('./') && !from.startsWith('../') && !/^preact(\/|$)/.test(from),
        )
        .concat(
          [...readFileSync(file, 'utf8').matchAll(/^import\s+(type\s+)?[^;]*?from\s+'(\.\.\/[^']+)'/gm)].filter(
            ([, isType, from = '']) =>
              !isType && !join(file, '..', from).startsWith(ui) && !SHARED.includes(join(file, '..', from)),
          ),
        )
        .map(([statement]) => `${relative(root, file)}: ${statement}`),
    );
    expect(files.length).toBeGreaterThan(10);
    expect(offenders).toEqual([]);
  });
});
