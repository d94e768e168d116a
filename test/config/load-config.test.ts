// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${env:VAR}` is config syntax under test, not a template
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { parseConfigJson } from '../../src/config/parse-config-json.js';
import { ConfigError } from '../../src/errors.js';
import { useTempDirs } from '../support/temp-dir.js';

const tempDir = useTempDirs();

async function rejection(promise: Promise<unknown>): Promise<ConfigError> {
  const error = await promise.then(
    () => null,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

describe('loadConfig', () => {
  it('reads and validates a file', async () => {
    const file = join(await tempDir(), 'boternity.json');
    await writeFile(file, JSON.stringify({ mcpServers: { s: { command: 'node', args: ['${env:ARG}'] } } }));
    const config = await loadConfig(file, { ARG: 'x' });
    expect(config.mcpServers.s).toMatchObject({ transport: 'stdio', command: 'node', args: ['x'] });
  });

  it('ignores a byte order mark', async () => {
    const file = join(await tempDir(), 'boternity.json');
    await writeFile(file, '\uFEFF{"mcpServers": {}}');
    expect((await loadConfig(file, {})).mcpServers).toEqual({});
  });

  it('reports a missing file as config_unreadable with its path', async () => {
    const file = join(await tempDir(), 'missing.json');
    const error = await rejection(loadConfig(file, {}));
    expect(error.code).toBe('config_unreadable');
    expect(error.file).toBe(file);
    expect(error.message).toBe(`${file}: cannot read config: file not found`);
  });

  it('reports a directory as unreadable', async () => {
    const dir = join(await tempDir(), 'boternity.json');
    await mkdir(dir);
    const error = await rejection(loadConfig(dir, {}));
    expect(error.code).toBe('config_unreadable');
    expect(error.message).toContain(dir);
  });

  it('refuses a named pipe (FIFO) at once with one line, instead of waiting for a writer forever', async () => {
    const fifo = join(await tempDir(), 'boternity.json');
    execFileSync('mkfifo', [fifo]);
    const error = await rejection(loadConfig(fifo, {}));
    expect(error.code).toBe('config_unreadable');
    expect(error.message).toBe(`${fifo}: cannot read config: it is a named pipe (FIFO), not a regular file`);
  });

  it('refuses a character device (one that never ends, /dev/zero) without reading it', async () => {
    const error = await rejection(loadConfig('/dev/zero', {}));
    expect(error.message).toBe('/dev/zero: cannot read config: it is a character device, not a regular file');
  });

  it('reports bad JSON with the file, line and column', async () => {
    const file = join(await tempDir(), 'boternity.json');
    await writeFile(file, '{\n  "mcpServers": {\n    "a": { "command": "node" "args": [] },\n  }\n}\n');
    const error = await rejection(loadConfig(file, {}));
    expect(error.code).toBe('config_invalid');
    expect(error.message).toBe(`${file}: invalid JSON at line 3, column 30: expected ","`);
    expect(error.issues).toEqual([{ server: null, field: '', message: expect.stringContaining('line 3, column 30') }]);
  });

  it('locates errors V8 reports without a position', async () => {
    const file = join(await tempDir(), 'boternity.json');
    await writeFile(file, '{\n  "mcpServers": {\n    "a": nul\n  }\n}');
    const error = await rejection(loadConfig(file, {}));
    expect(error.message).toMatch(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: invalid JSON at line 3, column 10: `),
    );
  });

  it('reports validation errors with the file path', async () => {
    const file = join(await tempDir(), 'boternity.json');
    await writeFile(file, JSON.stringify({ mcpServers: { web: { type: 'websocket', url: 'http://x' } } }));
    const error = await rejection(loadConfig(file, {}));
    expect(error.message).toBe(
      `${file}: invalid config\n  mcpServers.web.type: unknown transport "websocket" (expected stdio, http, sse or auto)`,
    );
  });
});

describe('parseConfigJson', () => {
  it.each([
    ['{"a": }', 'line 1, column 7: expected a value'],
    ['{"a" 1}', 'line 1, column 6: expected ":"'],
    ['{"a":1}x', 'line 1, column 8: unexpected character'],
    ['{"a": "\\q"}', 'line 1, column 7: invalid escape in a string'],
    ['', 'line 1, column 1: expected a value'],
    ['{"a": 1 /* open', 'unterminated comment'],
  ])('locates the first error in %j', (text, where) => {
    expect(() => parseConfigJson(text, 'f.json')).toThrow(where);
  });

  it('reads JSONC: comments and trailing commas, as in VS Code files', () => {
    const text = '// servers\n{\n  "servers": { /* one */ "a": { "command": "x", }, },\n}\n';
    expect(parseConfigJson(text, null)).toEqual({ servers: { a: { command: 'x' } } });
  });

  it.each(['{}', '[]', ' {"a": [1, -2.5e3, true, false, null, "x\\u00e9\\n"]} ', '"s"', '0'])(
    'reads valid JSON as JSON.parse does: %j',
    (text) => {
      expect(parseConfigJson(text, null)).toEqual(JSON.parse(text));
    },
  );
});
