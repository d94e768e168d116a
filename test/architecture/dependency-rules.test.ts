/**
 * The dependency rules of STYLE.md 2.1, checked on the source: machines/ is pure, only
 * hub/ touches xstate, guard/ depends on nothing, and only main.ts builds the real deps.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const sources = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(root, join(e.parentPath, e.name)));
const importsOf = (file: string): string[] =>
  [...readFileSync(join(root, file), 'utf8').matchAll(/^\s*(?:import|export)\b[^;]*?from\s+'([^']+)'/gm)].map(
    (m) => m[1] as string,
  );

describe('dependency rules', () => {
  it('machines/ imports only xstate and its own files', () => {
    const offenders = sources('machines').flatMap((f) =>
      importsOf(f)
        .filter((i) => i !== 'xstate' && !i.startsWith('./'))
        .map((i) => `${f} → ${i}`),
    );
    expect(offenders).toEqual([]);
  });

  it('only src/hub/ imports xstate', () => {
    const offenders = sources('src')
      .filter((f) => !f.startsWith('src/hub/'))
      .flatMap((f) =>
        importsOf(f)
          .filter((i) => i === 'xstate' || i.startsWith('xstate/'))
          .map((i) => `${f} → ${i}`),
      );
    expect(offenders).toEqual([]);
  });

  it('http/ and cli/ reach supervision only through the hub', () => {
    const offenders = sources('src')
      .filter((f) => f.startsWith('src/http/') || f.startsWith('src/cli/'))
      .flatMap((f) =>
        importsOf(f)
          .filter((i) => /machines\/|\/upstream\/|\/hub\/(?!create-hub|hub-event|server-status)/.test(i))
          .map((i) => `${f} → ${i}`),
      );
    expect(offenders).toEqual([]);
  });

  it('guard/ depends on nothing else in src/', () => {
    const offenders = sources('src/guard').flatMap((f) =>
      importsOf(f)
        .filter((i) => i.startsWith('..'))
        .map((i) => `${f} → ${i}`),
    );
    expect(offenders).toEqual([]);
  });

  it('the rule check itself sees imports', () => {
    expect(importsOf('src/main.ts')).toContain('./hub/create-hub.js');
    expect(sources('machines').length).toBeGreaterThan(3);
  });
});
