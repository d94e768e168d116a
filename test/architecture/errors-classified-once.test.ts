/**
 * Errors are classified once (issue 20, ADR 029): by their class and code, through the one
 * table in `src/errors/error-table.ts`, never by the words of a message; and every local
 * error class lives in the errors part. This test reads src/ and fails on either kind of
 * slip, and is shown to catch each one in lines written for it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as errors from '../../src/errors.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Looking into a message's words: `.message.includes(`, `/…/.test(error.message)`, `String(error).match(` … */
const BY_TEXT = [
  /\bmessage\??\.(match|matchAll|includes|startsWith|endsWith|search|indexOf)\(/,
  /\.(test|exec)\([^)]*\bmessage\b/,
  /String\((e|err|error|cause|failure)\)\.(match|includes|startsWith|endsWith|search|indexOf)\(/,
];

/**
 * The lines that read a message's words and may: each decides nothing about what kind of
 * failure it is, or has nothing else to go by. `file: the line, trimmed` → why.
 */
const ALLOWED: Record<string, string> = {
  'src/config/check-edit-base.ts: : (error.message.startsWith(own) ? error.message.slice(own.length) : error.message)':
    'formatting: drops the path the new message names anyway; the code decides',
  "src/cli/bridge-stdio.ts: return { status: error.code ?? 0, body: /Error POSTing to endpoint: (.*)$/s.exec(error.message)?.[1] ?? '' };":
    "the SDK's StreamableHTTPError carries the service's answer only in its message; the status comes from its code",
  'src/cli/bridge-stdio.ts: return error instanceof Error && /Maximum reconnection attempts/.test(error.message);':
    'the SDK says it gave up reconnecting only in words: a plain Error, no class or code',
};

/** The source files under `dir`, relative to the root. */
function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

/** `file: line` for each line of `text` that classifies by message text and is not allowed. */
function byText(file: string, text: string): string[] {
  return text
    .split('\n')
    .map((line) => `${file}: ${line.trim()}`)
    .filter((line) => BY_TEXT.some((pattern) => pattern.test(line)) && !(line in ALLOWED));
}

/** The names of the error classes the errors part exports. */
const errorClasses = Object.entries(errors)
  .filter(([, v]) => typeof v === 'function' && (v === errors.HubError || v.prototype instanceof errors.HubError))
  .map(([name]) => name);

/** `file: class X` for each class outside the errors part that extends one of its error classes. */
function strayErrors(file: string, text: string): string[] {
  if (file === 'src/errors.ts' || file.startsWith('src/errors/')) return [];
  return [...text.matchAll(/class (\w+) extends (\w+)/g)]
    .filter((m) => errorClasses.includes(m[2] ?? ''))
    .map((m) => `${file}: class ${m[1]}`);
}

describe('errors classified once', () => {
  const files = sources('src').map((file) => ({ file, text: readFileSync(join(root, file), 'utf8') }));

  it('classifies no error by the words of its message anywhere in src/', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(files.flatMap(({ file, text }) => byText(file, text))).toEqual([]);
  });

  it('allows only lines that are still there', () => {
    const all = new Set(files.flatMap(({ file, text }) => text.split('\n').map((l) => `${file}: ${l.trim()}`)));
    expect(Object.keys(ALLOWED).filter((line) => !all.has(line))).toEqual([]);
  });

  it('keeps every local error class in the errors part', () => {
    expect(errorClasses.length).toBeGreaterThan(30);
    expect(files.flatMap(({ file, text }) => strayErrors(file, text))).toEqual([]);
  });

  it('catches each kind of slip in lines written for it', () => {
    const slips = [
      'if (/not available in this view/.test(error.message)) return 404;',
      "if (error.message.includes('ECONNREFUSED')) retry();",
      "const gone = message.startsWith('Session not found');",
      'if (String(error).match(/timeout/)) return 504;',
    ];
    for (const slip of slips) expect(byText('src/x.ts', slip), slip).toHaveLength(1);
    expect(byText('src/x.ts', 'if (error.code === ErrorCode.InvalidParams) return 400;')).toEqual([]);
    expect(strayErrors('src/gateway/x.ts', 'export class LostError extends HubError {')).toEqual([
      'src/gateway/x.ts: class LostError',
    ]);
  });
});
