/**
 * Issue 17 item 1: config text nested to any depth (up to 100,000 levels of arrays and
 * objects, with comments and line breaks between them) is either read or refused with a
 * ConfigError naming the file, line and column of the first level too deep; never a
 * RangeError (stack overflow) from a recursive parser, validator or editor. Every reader of
 * config text is covered: load, validate, edit, import (other clients' files).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkEditBase } from '../../src/config/check-edit-base.js';
import { editConfig } from '../../src/config/edit-config.js';
import { readClientServers } from '../../src/config/import-client-config.js';
import { loadConfig, parseConfigText, parseConfigTextDetailed } from '../../src/config/load-config.js';
import { openConfigDocument } from '../../src/config/open-config-document.js';
import { lineColumn, MAX_CONFIG_DEPTH, parseConfigJson } from '../../src/config/parse-config-json.js';
import { ConfigError, HubError } from '../../src/errors.js';
import { useTempDirs } from '../support/temp-dir.js';

const FILE = '/etc/bnity/boternity.json';
const tempDir = useTempDirs('bnity-depth-');

/** Where the nesting starts: its text before and after, and how deep it already is there. */
const PLACES = [
  { before: '{"mcpServers": {}, "x": ', after: '}', depth: 1 },
  { before: '// a comment\n{"mcpServers": {"s": {"command": "node", "note": ', after: '}}}', depth: 3 },
  { before: '{"mcpServers": {}, "bots": {"b": {"name": ', after: '}}}', depth: 3 },
  { before: '', after: '', depth: 0 },
] as const;

type Nested = { text: string; depth: number; tooDeepAt: number | null };

/** Text nested `levels` deep (arrays and objects as `kinds` says, cycled), built without recursion. */
function nested(place: (typeof PLACES)[number], levels: number, kinds: readonly boolean[], spacer: string): Nested {
  const open: string[] = [place.before];
  const close: string[] = [];
  let offset = place.before.length;
  let tooDeepAt: number | null = null;
  for (let level = 0; level < levels; level++) {
    const isObject = kinds[level % kinds.length] ?? false;
    const token = isObject ? '{"k":' : '[';
    if (tooDeepAt === null && place.depth + level + 1 > MAX_CONFIG_DEPTH) tooDeepAt = offset;
    open.push(token, spacer);
    offset += token.length + spacer.length;
    close.push(isObject ? '}' : ']');
  }
  const text = `${open.join('')}1${close.reverse().join('')}${place.after}`;
  return { text, depth: place.depth + levels, tooDeepAt };
}

const nestedText = fc
  .record({
    place: fc.constantFrom(...PLACES),
    levels: fc.oneof(fc.integer({ min: 1, max: 2 * MAX_CONFIG_DEPTH }), fc.integer({ min: 1, max: 100_000 })),
    kinds: fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
    spacer: fc.constantFrom('', ' ', '\n', '/* [{ */', '\r\n  '),
  })
  .map(({ place, levels, kinds, spacer }) => nested(place, levels, kinds, spacer));

/** Run `read`; anything thrown must be a ConfigError (a RangeError fails the property). */
function refusal(read: () => unknown): ConfigError | null {
  try {
    read();
    return null;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error;
  }
}

describe('config text nested to any depth (property)', () => {
  it('is read, or refused naming the file, line and column of the first level too deep', () => {
    fc.assert(
      fc.property(nestedText, ({ text, tooDeepAt }) => {
        const syntax = refusal(() => parseConfigJson(text, FILE));
        const validated = refusal(() => parseConfigTextDetailed(text, FILE, {}));
        if (tooDeepAt === null) {
          expect(syntax).toBeNull();
          return;
        }
        const { line, column } = lineColumn(text, tooDeepAt);
        const expected = `${FILE}: invalid JSON at line ${line}, column ${column}: nested deeper than ${MAX_CONFIG_DEPTH} levels`;
        expect(syntax?.message).toBe(expected);
        expect(validated?.message).toBe(expected);
      }),
      { numRuns: 60 },
    );
  });

  it('is never built on by an edit: refused as the file on disk, in one line, with line and column', () => {
    const inForce = parseConfigText('{"mcpServers": {"a": {"command": "node"}}}', FILE, {});
    fc.assert(
      fc.property(nestedText, ({ text, tooDeepAt }) => {
        fc.pre(tooDeepAt !== null);
        const error = refusal(() => checkEditBase(text, FILE, { env: {}, inForce }));
        expect(error?.code).toBe('config_file_invalid');
        expect(error?.message).toMatch(
          new RegExp(
            `^${FILE}: the file on disk is invalid, so it was not edited: invalid JSON at line \\d+, column \\d+: nested deeper than ${MAX_CONFIG_DEPTH} levels; fix the file or revert it`,
          ),
        );
        expect(error?.message).not.toMatch(/\n/);
      }),
      { numRuns: 30 },
    );
  });
});

describe('every reader of a file nested 10,000 and 100,000 deep', () => {
  const deep = (levels: number) => nested(PLACES[0], levels, [false], '').text;

  it.each([10_000, 100_000])(
    'load, edit and import refuse %i levels with a ConfigError naming the file',
    async (levels) => {
      const dir = await tempDir();
      const file = join(dir, 'boternity.json');
      await writeFile(file, deep(levels));
      const where = new RegExp(
        `^${file}: invalid JSON at line 1, column 124: nested deeper than ${MAX_CONFIG_DEPTH} levels$`,
      );
      await expect(loadConfig(file, {})).rejects.toThrow(where);
      await expect(readClientServers(file)).rejects.toThrow(where);
      const edit = editConfig(file, (doc) => doc.addServer('new', { command: 'node' }), { env: {} });
      await expect(edit).rejects.toMatchObject({ code: 'config_file_invalid', file });
      await expect(edit).rejects.toThrow(
        /the file on disk is invalid, so it was not edited: invalid JSON at line 1, column 124/,
      );
    },
  );

  it('refuses an edit whose value would nest too deep (an import of a hostile entry), as a bad request', () => {
    let value: unknown = 1;
    for (let i = 0; i < 100_000; i++) value = [value];
    const doc = openConfigDocument('{"mcpServers": {}}');
    expect(() => doc.setServer('x', { command: 'node', deep: value })).toThrow(HubError);
    expect(() => doc.setServer('x', { command: 'node', deep: value })).toThrow(
      /^mcpServers\.x: nested deeper than 100 levels$/,
    );
    expect(doc.text()).toBe('{"mcpServers": {}}');
  });
});
