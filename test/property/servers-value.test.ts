/**
 * Issue 17 item 2: any JSON value of `mcpServers` (or a file without it) while servers run.
 * The hot reload never accepts one that is not an object of servers (it would stop them
 * all), and an edit never builds on one: it is refused as the file on disk, in one line
 * naming the file, never with another exception.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkEditBase } from '../../src/config/check-edit-base.js';
import { isJsonObject } from '../../src/config/json-object.js';
import { parseConfigText, parseConfigTextDetailed } from '../../src/config/load-config.js';
import { refuseReload } from '../../src/config/refuse-reload.js';
import { ConfigError } from '../../src/errors.js';

const FILE = '/srv/bnity/boternity.json';
const RUNNING = parseConfigText(
  JSON.stringify({ mcpServers: { a: { command: 'node' }, b: { command: 'node' }, c: { url: 'http://127.0.0.1:1/' } } }),
  FILE,
  {},
);
const serversValue = fc.oneof(
  fc.constantFrom(null, [], {}, '', 0, false, [{ command: 'node' }], { a: null }, { a: [] }),
  fc.jsonValue({ maxDepth: 4 }),
);
/** The file's text with `value` as `mcpServers` (undefined: no such key), with or without VS Code's key. */
const fileText = fc
  .record({ value: fc.option(serversValue, { nil: undefined }), key: fc.constantFrom('mcpServers', 'servers') })
  .map(({ value, key }) => (value === undefined ? '{"bots": {}}' : JSON.stringify({ [key]: value })));

/** What the hot reload does with `text`: the config it would apply, or its refusal. */
function reload(text: string): { applied: boolean; error: ConfigError | null } {
  try {
    const parsed = parseConfigTextDetailed(text, FILE, {});
    const refusal = refuseReload(parsed, RUNNING, FILE);
    return { applied: refusal === null, error: refusal };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return { applied: false, error };
  }
}

describe('any value of mcpServers while servers run (property)', () => {
  it('is applied by the hot reload only when it is an object of valid servers', () => {
    fc.assert(
      fc.property(fileText, (text) => {
        const raw = JSON.parse(text) as Record<string, unknown>;
        const value = raw.mcpServers ?? raw.servers;
        const { applied, error } = reload(text);
        if (!isJsonObject(value)) expect(applied).toBe(false);
        if (!applied) expect(error?.message.startsWith(`${FILE}: `)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('is built on by an edit exactly when the hot reload would apply it; otherwise refused in one line', () => {
    fc.assert(
      fc.property(fileText, (text) => {
        const { applied } = reload(text);
        let refused: ConfigError | null = null;
        try {
          checkEditBase(text, FILE, { env: {}, inForce: RUNNING });
        } catch (error) {
          if (!(error instanceof ConfigError)) throw error;
          refused = error;
        }
        expect(refused === null).toBe(applied);
        if (refused === null) return;
        expect(refused.code).toBe('config_file_invalid');
        expect(refused.message).toMatch(
          new RegExp(
            `^${FILE}: the file on disk is invalid, so it was not edited: .+; fix the file or revert it, then try again \\(nothing was written\\)$`,
          ),
        );
        expect(refused.message).not.toMatch(/[\r\n]/);
      }),
      { numRuns: 400 },
    );
  });

  it('says what is wrong for the shapes the issue names', () => {
    const refusalOf = (text: string) => {
      try {
        checkEditBase(text, FILE, { env: {}, inForce: RUNNING });
        return null;
      } catch (error) {
        return (error as ConfigError).message.replace(
          `${FILE}: the file on disk is invalid, so it was not edited: `,
          '',
        );
      }
    };
    expect(refusalOf('null')).toMatch(
      /^invalid config: \(root\) \(line 1, column 1\): expected a JSON object, got null;/,
    );
    expect(refusalOf('{"mcpServers": null}')).toMatch(
      /^invalid config: mcpServers \(line 1, column 2\): expected an object of servers by name, got null;/,
    );
    expect(refusalOf('{"mcpServers": []}')).toMatch(
      /^invalid config: mcpServers \(line 1, column 2\): expected an object/,
    );
    expect(refusalOf('{}')).toMatch(/^names no servers \(no "mcpServers" key\) and would stop all 3 running;/);
    expect(refusalOf('{"mcpServers": {}}')).toBeNull();
  });
});
